// `crabtalk memory list|show|search|forget`, `crabtalk skills` and
// `crabtalk compact [SESSION]`: what agents remember, which skills they can
// use, and a summary of a conversation.
import type { Command } from "commander";
import { SourceKind } from "../../protocol/gen/crabtalk_pb.ts";
import { parseSessionId } from "../args.ts";
import { homeOf } from "../daemon-control.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { addMemoryFile, forgetFile, readMemory, searchMemory, type MemoryFile } from "../memory-files.ts";
import { readMessage } from "../args.ts";
import { EMPTY_MESSAGE } from "../message-input.ts";
import { UnreachableError } from "../endpoint.ts";
import { toPlain } from "../plain-json.ts";
import { formatTable } from "../table.ts";
import { action } from "./run.ts";

const SOURCES: Record<number, string> = { [SourceKind.LOCAL]: "local", [SourceKind.PACKAGE]: "package", [SourceKind.EXTERNAL]: "external" };

export function registerMemoryCommands(program: Command, conn: () => ConnectOptions): void {
  const entriesDir = () => homeOf().memoryEntries;
  const find = (name: string): MemoryFile => {
    const all = readMemory(entriesDir());
    const entry = all.find((e) => e.name === name.trim());
    if (!entry) throw new Error(`no memory named '${name}'${all.length ? ": see crabtalk memory list" : ""}`);
    return entry;
  };
  const table = (entries: MemoryFile[]) =>
    entries.length === 0 ? "no memories" : formatTable(["NAME", "DESCRIPTION"], entries.map((e) => [e.name, e.description]));

  const memory = program
    .command("memory")
    .description("what the agents remember (<home>/memory/entries): list, show, search, add, forget")
    .addHelpText("after", "\nAgents save entries with their remember tool; recall finds them before every run.");
  memory
    .command("list", { isDefault: true })
    .description("every memory entry, by name")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const entries = readMemory(entriesDir());
        console.log(opts.json ? JSON.stringify(entries.map(({ file: _f, ...e }) => e)) : table(entries));
      }),
    );
  memory
    .command("show")
    .description("one entry in full")
    .argument("<name>", "entry name (see crabtalk memory list)")
    .action(
      action(async (name: string) => {
        const e = find(name);
        console.log(`${e.name}\n${e.description}\n\n${e.content}`);
      }),
    );
  memory
    .command("search")
    .description("entries matching words, best first, as the agents' recall finds them")
    .argument("<query...>", "words to look for")
    .option("-n, --limit <n>", "at most this many", (v) => Number.parseInt(v, 10), 10)
    .action(
      action(async (query: string[], opts: { limit: number }) => {
        console.log(table(searchMemory(readMemory(entriesDir()), query.join(" "), opts.limit)));
      }),
    );
  memory
    .command("add")
    .description("remember something for the agents, as their remember tool does")
    .argument("[text]", "what to remember; omit it or give - to read it from standard input")
    .option("--name <name>", "the entry's name (default: the text's first line, cut to 48 characters)")
    .option("--description <text>", "one line the agents' recall shows (default: the text's first line)")
    .addHelpText(
      "after",
      `
A name that is already remembered is refused (crabtalk memory forget NAME first).
A running daemon reloads, so the next run's recall can find the entry.

Examples:
  crabtalk memory add "The staging server is staging.example.com" --name staging
  crabtalk memory add --name style < writing-style.md`,
    )
    .action(
      action(async (text: string | undefined, opts: { name?: string; description?: string }) => {
        // Empty text is refused in memory's words, not send's.
        const content = await readMessage(text).catch((err: Error) => (err.message === EMPTY_MESSAGE ? "" : Promise.reject(err)));
        const entry = await addMemoryFile(entriesDir(), content, opts);
        // The daemon holds the entries in memory: a reload reads this one; a stopped daemon reads it when it starts.
        await withClient(conn(), (c) => c.reload()).catch((err: unknown) => {
          if (!(err instanceof UnreachableError)) throw err;
        });
        console.log(`remembered ${entry.name}`);
      }),
    );
  memory
    .command("forget")
    .description("delete an entry")
    .argument("<name>", "entry name")
    .action(
      action(async (name: string) => {
        forgetFile(entriesDir(), find(name));
        // The daemon holds the entries in memory: reloading drops this one there too.
        await withClient(conn(), (c) => c.reload());
        console.log(`forgot ${name.trim()}`);
      }),
    );

  program
    .command("skills")
    .description("skills the agents can use (start a message with /NAME to use one)")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const skills = await withClient(conn(), (c) => c.listSkills());
        if (opts.json) return void console.log(JSON.stringify(toPlain(skills)));
        if (skills.length === 0) return void console.log("no skills: add one as <home>/local/skills/NAME/SKILL.md");
        const rows = skills.map((s) => [s.name, s.enabled ? "yes" : "no", SOURCES[s.sourceKind] ?? "", s.source]);
        console.log(formatTable(["NAME", "ENABLED", "FROM", "SOURCE"], rows));
      }),
    );

  program
    .command("compact")
    .description("summarise a session's conversation so far (changes nothing)")
    .argument("[session]", "session id (default: your latest session with crab)", parseSessionId)
    .action(
      action(async (session?: bigint) => {
        const summary = await withClient(conn(), async (c) => {
          let id = session;
          if (id === undefined) {
            const mine = (await c.sessions()).filter((x) => x.agent === "crab" && x.createdBy === "user");
            id = mine.at(-1)?.id;
            if (id === undefined) throw new Error("no open session of yours: name one (see crabtalk sessions)");
          }
          return c.compact(id);
        });
        console.log(summary);
      }),
    );
}
