// `crabtalk conversations` and `crabtalk history`: conversation files on disk.
import { InvalidArgumentError, type Command } from "commander";
import { withClient, type ConnectOptions } from "../connect.ts";
import { resolveConversationFile } from "../conversation-file.ts";
import { conversationsTable, searchHitsText } from "../listings.ts";
import { toPlain, type Plain } from "../plain-json.ts";
import { action } from "./run.ts";
import { forStdout } from "../stream/terminal-safe.ts";

export function registerConversationCommands(program: Command, conn: () => ConnectOptions): void {
  program
    .command("conversations")
    .description("list conversation files in <home>/sessions, newest first")
    .option("-a, --agent <name>", "only this agent's conversations")
    .option("--sender <name>", "only this sender's (needs --agent)")
    .option("--json", "print a JSON array with full file paths")
    .addHelpText(
      "after",
      `
FILE is the name to give to crabtalk history or send --resume.`,
    )
    .action(
      action(async (opts: { agent?: string; sender?: string; json?: boolean }) => {
        if (opts.sender && !opts.agent) throw new Error("--sender filters only together with --agent");
        const list = await withClient(conn(), (client) => client.listConversations(opts.agent ?? "", opts.sender ?? ""));
        console.log(opts.json ? JSON.stringify(toPlain(list)) : conversationsTable(list));
      }),
    );

  const history = program
    .command("history")
    .description("print a conversation's messages as 'role: content' lines; history search QUERY finds conversations")
    .argument("<file>", "conversation file: a name from crabtalk conversations, or a path in <home>/sessions")
    .option("--all", "every message of the file, compacted ones included, read a page at a time")
    .option("--offset <n>", "with --limit: start at this message of the file (0 = the oldest)", parseOffset)
    .option("--limit <n>", "one page: at most this many messages of the file", parseLimit)
    .option("--json", "print {title, agent, messages: [{role, content, tool_calls?}]} (a page adds offset and total; --all prints one such line per page)")
    .addHelpText(
      "after",
      `
Without --all or --limit, shows the working context: after a compaction, the
summary (as a user message) and what followed it; for a conversation larger
than a resume reads, its newest part. --all and --limit read the whole file,
a page at a time. Assistant turns that only called tools have empty content.`,
    )
    .action(
      action(async (file: string, opts: { json?: boolean; all?: boolean; offset?: number; limit?: number }) => {
        if (opts.offset !== undefined && opts.limit === undefined) throw new Error("--offset pages only together with --limit");
        const path = resolveConversationFile(file);
        const print = (h: { messages: Array<{ role: string; content: string }> }) => {
          if (opts.json) console.log(JSON.stringify(historyJson(h)));
          else for (const m of h.messages) console.log(`${m.role}: ${forStdout(m.content)}`);
        };
        await withClient(conn(), async (client) => {
          if (!opts.all && opts.limit === undefined) return print(await client.getConversationHistory(path));
          if (!opts.all) return print(await client.getConversationHistory(path, { offset: opts.offset ?? 0, limit: opts.limit! }));
          for (let offset = 0; ; ) {
            const page = await client.getConversationHistory(path, { offset, limit: HISTORY_PAGE });
            print(page);
            offset += page.messages.length;
            if (page.messages.length === 0 || offset >= page.total) return;
          }
        });
      }),
    );

  history
    .command("search")
    .description("find conversations by what was said in them (BM25 over user and assistant messages)")
    .argument("<query...>", "words to look for")
    .option("-a, --agent <name>", "only this agent's conversations")
    .option("--sender <name>", "only conversations started by this sender")
    .option("-l, --limit <n>", "at most this many conversations (default 10)", parseLimit)
    .option("--json", "print the hits as a JSON array")
    .addHelpText(
      "after",
      `
Best conversation first, each with its best-matching message (marked >) and
the messages before and after it. Give the file to crabtalk history or
crabtalk send --resume.

Examples:
  crabtalk history search deploy staging
  crabtalk history search --agent reviewer --limit 3 flaky test`,
    )
    .action(
      action(async (words: string[], _opts: unknown, cmd: Command) => {
        // `--json` may land on `history` itself, which has the same option.
        const opts = cmd.optsWithGlobals<{ agent?: string; sender?: string; limit?: number; json?: boolean }>();
        const hits = await withClient(conn(), (client) =>
          client.searchSessions({ query: words.join(" "), agent: opts.agent ?? "", sender: opts.sender ?? "", limit: opts.limit ?? 0 }),
        );
        console.log(opts.json ? JSON.stringify(toPlain(hits)) : searchHitsText(hits));
      }),
    );
}

/** Messages asked for per page by `history --all`. */
const HISTORY_PAGE = 500;

function parseOffset(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("must be a whole number, 0 or more");
  return n;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number of at least 1");
  return n;
}

/** A history page as JSON: a message's `tool_calls` only when it made some. */
function historyJson(history: object): Plain {
  const plain = toPlain(history) as { messages?: Array<{ [key: string]: Plain }> };
  for (const m of plain.messages ?? []) if (Array.isArray(m.tool_calls) && m.tool_calls.length === 0) delete m.tool_calls;
  return plain as Plain;
}
