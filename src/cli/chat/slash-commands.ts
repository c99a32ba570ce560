// Chat's own commands (/new, /sessions, /agent, /resume, /search, /usage,
// /help, /quit). A /word that names a skill goes to the agent as typed; any
// other /word is refused with the closest command or skill, so a typo never
// reaches the model.
import { basename } from "node:path";
import { DaemonError } from "../../protocol/client.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { searchHitsText, sessionsTable } from "../listings.ts";
import { resolveConversationFile } from "../conversation-file.ts";
import { formatTable, oneLine } from "../table.ts";
import { closest } from "../../config/schema-keys.ts";
import { resumeConversation, type ChatState } from "./state.ts";

export const CHAT_HELP = `commands:
  /new           start a new conversation with the next message
  /sessions      list the sessions open in the daemon
  /agent [NAME]  talk to another agent (no NAME: show the current one)
  /resume [N|FILE]  pick a conversation to continue (N: from the last list shown)
  /search QUERY  find conversations by what was said in them
  /usage on|off  show tokens and cost after each answer (default on)
  /help          this help
  /quit          leave (also /exit, Ctrl-D, or Ctrl-C at an empty prompt)
Ctrl-C while an answer streams stops waiting for it; the session stays.
Ctrl-L clears the screen (also while an answer streams).
/SKILL [text] sends the message with that skill (see crabtalk skills).
Tab completes commands and skill names. End a line with \\ to continue the
message on the next line; pasted text keeps its lines.`;

/** Chat's own command words, for completion and "did you mean". */
export const CHAT_COMMANDS = ["/new", "/sessions", "/agent", "/resume", "/search", "/usage", "/help", "/quit", "/exit"];

export type SlashResult = { kind: "message" } | { kind: "done"; output: string } | { kind: "quit" };

/** Asks the user for one line (a choice); undefined when they gave none. */
export type Ask = (question: string) => Promise<string | undefined>;

/** Conversations `/resume` offers: the newest first. */
export const RESUME_LIST_LENGTH = 20;

export interface SlashContext {
  ask: Ask;
  /** The skill names a /word may name (fetched when needed, so a skill added during the chat counts). */
  skills: () => Promise<string[]>;
}

export async function runSlashCommand(line: string, state: ChatState, conn: ConnectOptions, context: SlashContext): Promise<SlashResult> {
  const [word, ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(" ");
  switch (word) {
    case "/quit":
    case "/exit":
      return { kind: "quit" };
    case "/help":
      return { kind: "done", output: CHAT_HELP };
    case "/new":
      state.session = undefined;
      state.resumeFile = undefined;
      state.newChat = true;
      return { kind: "done", output: "the next message starts a new conversation" };
    case "/sessions":
      return { kind: "done", output: sessionsTable(await withClient(conn, (c) => c.sessions())) };
    case "/agent":
      return { kind: "done", output: arg ? await switchAgent(arg, state, conn) : `talking to ${state.agent}` };
    case "/search":
      return { kind: "done", output: arg ? await search(arg, state, conn) : "usage: /search QUERY" };
    case "/resume":
      return { kind: "done", output: await resume(arg, state, conn, context.ask) };
    case "/usage":
      if (arg !== "on" && arg !== "off") return { kind: "done", output: `usage is ${state.showUsage ? "on" : "off"}: /usage on|off` };
      state.showUsage = arg === "on";
      return { kind: "done", output: `usage after each answer: ${arg}` };
    default: {
      const names = await context.skills();
      if (names.includes(word.slice(1))) return { kind: "message" };
      const match = closest(word, [...CHAT_COMMANDS, ...names.map((n) => `/${n}`)]);
      return { kind: "done", output: `unknown command ${word}${match ? ` — did you mean ${match}?` : ""} (/help lists commands)` };
    }
  }
}

async function switchAgent(name: string, state: ChatState, conn: ConnectOptions): Promise<string> {
  try {
    await withClient(conn, (c) => c.getAgent(name));
  } catch (err) {
    // Only a definite "no such agent" stops the switch; the next message reports anything else.
    if (err instanceof DaemonError && err.code === 404) return `no agent '${name}' (see crabtalk agents list)`;
  }
  state.agent = name;
  state.session = undefined;
  state.resumeFile = undefined;
  state.newChat = false;
  return `talking to ${name}; the next message continues your latest conversation with it`;
}

async function search(query: string, state: ChatState, conn: ConnectOptions): Promise<string> {
  const hits = await withClient(conn, (c) => c.searchSessions({ query, limit: 10 }));
  state.picks = hits.map((h) => ({ filePath: h.filePath, agent: h.agent }));
  return hits.length === 0 ? "no matches" : `${searchHitsText(hits)}\n\n/resume N continues one of these`;
}

/** `/resume N` picks from the last list, `/resume FILE` names a file, `/resume` lists and asks. */
async function resume(arg: string, state: ChatState, conn: ConnectOptions, ask: Ask): Promise<string> {
  if (/^\d+$/.test(arg)) return pick(Number(arg), state);
  if (arg) {
    const filePath = resolveConversationFile(arg);
    const history = await withClient(conn, (c) => c.getConversationHistory(filePath));
    resumeConversation(state, filePath, history.agent);
    return `the next message continues ${basename(filePath)} with ${state.agent}`;
  }
  const list = (await withClient(conn, (c) => c.listConversations())).slice(0, RESUME_LIST_LENGTH);
  if (list.length === 0) return "no conversations yet";
  state.picks = list.map((c) => ({ filePath: c.filePath, agent: c.agent }));
  const table = formatTable(
    ["#", "DATE", "AGENT", "MESSAGES", "FILE"],
    list.map((c, i) => [String(i + 1), c.date, c.agent, String(c.messageCount), oneLine(basename(c.filePath), 60)]),
  );
  const answer = (await ask(`${table}\nconversation number (empty to cancel): `))?.trim();
  if (!answer) return "resume cancelled";
  if (!/^\d+$/.test(answer)) return `'${answer}' is not a number from the list`;
  return pick(Number(answer), state);
}

function pick(n: number, state: ChatState): string {
  const chosen = state.picks[n - 1];
  if (!chosen) return state.picks.length === 0 ? "nothing to pick from: /resume or /search first" : `pick a number from 1 to ${state.picks.length}`;
  resumeConversation(state, chosen.filePath, chosen.agent);
  return `the next message continues ${basename(chosen.filePath)} with ${state.agent}`;
}
