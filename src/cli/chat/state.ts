// Where the next chat message goes: agent, session and how to resolve it.
import type { StreamRequest } from "../stream/run-stream.ts";

export interface ChatState {
  agent: string;
  /** The session from the last `start`; later messages go straight to it. */
  session?: bigint;
  /** The next message starts a new conversation (`/new`, `--new`). */
  newChat: boolean;
  /** The next message continues this conversation file (`--resume`). */
  resumeFile?: string;
  sender?: string;
  cwd: string;
  /** Print `1.2k in · 340 out · $0.004` after each answer (`--no-usage`, `/usage off`). */
  showUsage: boolean;
  /** Conversation files of the last `/resume` or `/search` list, for `/resume N`. */
  picks: { filePath: string; agent: string }[];
}

export function nextRequest(state: ChatState, content: string): StreamRequest {
  return {
    agent: state.agent,
    content,
    session: state.session,
    sender: state.sender,
    newChat: state.session === undefined && state.newChat,
    resumeFile: state.session === undefined ? state.resumeFile : undefined,
    cwd: state.cwd,
  };
}

/** After a run started: stay in its session. */
export function enteredSession(state: ChatState, session: bigint): void {
  state.session = session;
  state.newChat = false;
  state.resumeFile = undefined;
}

/** The next message continues `filePath` (a conversation of `agent`). */
export function resumeConversation(state: ChatState, filePath: string, agent: string): void {
  state.agent = agent || state.agent;
  state.session = undefined;
  state.newChat = false;
  state.resumeFile = filePath;
}
