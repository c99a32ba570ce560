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
