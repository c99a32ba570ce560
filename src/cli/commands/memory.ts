// `crabtalk memory list|show|search|add|forget`, `crabtalk skills` and
// `crabtalk compact [SESSION]`: what agents remember, which skills they can
// use, and a summary of a conversation. Memory goes through the daemon's
// memory operations (docs/protocol.md#memory), like every other command.
import type { Command } from "commander";
import { SourceKind, type MemoryEntryInfo } from "../../protocol/gen/crabtalk_pb.ts";
import { parseSessionId } from "../args.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { readMessage } from "../args.ts";
import { EMPTY_MESSAGE } from "../message-input.ts";
import { toPlain } from "../plain-json.ts";
import { formatTable } from "../table.ts";
import { action } from "./run.ts";
import { forStdout } from "../stream/terminal-safe.ts";

const SOURCES: Record<number, string> = { [SourceKind.LOCAL]: "local", [SourceKind.PACKAGE]: "package", [SourceKind.EXTERNAL]: "external" };

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) throw new Error(`--limit must be a whole number from 1 up, not '${value}'`);
  return n;
}

export function registerMemoryCommands(program: Command, conn: () => ConnectOptions): void {
  const table = (entries: MemoryEntryInfo[]) =>
    entries.length === 0
      ? "no memories"
      : formatTable(
          ["NAME", "DESCRIPTION"],
          entries.map((e) => [e.name, e.description]),
        );

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
        const entries = await withClient(conn(), (c) => c.listMemory());
        console.log(opts.json ? JSON.stringify(toPlain(entries)) : table(entries));
      }),
    );
  memory
    .command("show")
    .description("one entry in full")
    .argument("<name>", "entry name (see crabtalk memory list)")
    .action(
      action(async (name: string) => {
        const e = await withClient(conn(), (c) => c.getMemory(name));
        console.log(forStdout(`${e.name}\n${e.description}\n\n${e.content}`));
      }),
    );
  memory
    .command("search")
    .description("entries matching words, best first, as the agents' recall finds them")
    .argument("<query...>", "words to look for")
    .option("-n, --limit <n>", "at most this many", positiveInt, 10)
    .action(
      action(async (query: string[], opts: { limit: number }) => {
        console.log(table(await withClient(conn(), (c) => c.searchMemory(query.join(" "), opts.limit))));
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
The daemon saves the entry, so the next run's recall can find it.

Examples:
  crabtalk memory add "The staging server is staging.example.com" --name staging
  crabtalk memory add --name style < writing-style.md`,
    )
    .action(
      action(async (text: string | undefined, opts: { name?: string; description?: string }) => {
        // Empty text is refused in memory's words, not send's, before the daemon is asked.
        const content = await readMessage(text).catch((err: Error) => (err.message === EMPTY_MESSAGE ? "" : Promise.reject(err)));
        if (content.trim() === "") throw new Error("nothing to remember: give the text as an argument or on standard input");
        const entry = await withClient(conn(), (c) => c.addMemory({ content, name: opts.name, description: opts.description }));
        console.log(`remembered ${entry.name}`);
      }),
    );
  memory
    .command("forget")
    .description("delete an entry")
    .argument("<name>", "entry name")
    .action(
      action(async (name: string) => {
        await withClient(conn(), (c) => c.forgetMemory(name));
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
