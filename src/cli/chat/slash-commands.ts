// Chat's own commands (/new, /sessions, /agent, /help, /quit). A /word that
// names a skill goes to the agent as typed; any other /word is refused with
// the closest command or skill, so a typo never reaches the model.
import { DaemonError } from "../../protocol/client.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { sessionsTable } from "../listings.ts";
import { closest } from "../../daemon/config/schema-keys.ts";
import type { ChatState } from "./state.ts";

export const CHAT_HELP = `commands:
  /new           start a new conversation with the next message
  /sessions      list the sessions open in the daemon
  /agent [NAME]  talk to another agent (no NAME: show the current one)
  /help          this help
  /quit          leave (also /exit, Ctrl-D, or Ctrl-C at an empty prompt)
Ctrl-C while an answer streams stops waiting for it; the session stays.
/SKILL [text] sends the message with that skill (see crabtalk skills).
Tab completes commands and skill names. End a line with \\ to continue the
message on the next line; pasted text keeps its lines.`;

/** Chat's own command words, for completion and "did you mean". */
export const CHAT_COMMANDS = ["/new", "/sessions", "/agent", "/help", "/quit", "/exit"];

export type SlashResult = { kind: "message" } | { kind: "done"; output: string } | { kind: "quit" };

/**
 * Runs a chat command. `skills` gives the skill names a /word may name
 * (fetched when needed, so a skill added during the chat counts).
 */
export async function runSlashCommand(
  line: string,
  state: ChatState,
  conn: ConnectOptions,
  skills: () => Promise<string[]>,
): Promise<SlashResult> {
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
    default: {
      const names = await skills();
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
