// One ACP session as this process holds it: its agent, directory, the
// prompt running in it and the editor's MCP servers.
import type { Client } from "../../protocol/client.ts";
export interface AcpSession {
  id: string;
  /** The crabtalk agent (the ACP mode). */
  agent: string;
  /** Absolute working directory for the agent's tools. */
  cwd: string;
  /** The daemon's session id, from the last run's `start` (for Cancel). */
  daemonSession?: bigint;
  /** The prompt in progress, if any. */
  turn?: RunningTurn;
  /** Counts prompts, so tool call ids stay unique within the session. */
  turns: number;
  /** The daemon connection that keeps the editor's MCP servers attached to this session's runs. */
  mcpHold?: Client;
}

export interface RunningTurn {
  /** session/cancel: stop the run and resolve pending questions as cancelled; settles once the daemon was told. */
  cancel(): Promise<void>;
}

export class Sessions {
  private readonly byId = new Map<string, AcpSession>();

  add(id: string, agent: string, cwd: string): AcpSession {
    const existing = this.byId.get(id);
    if (existing) {
      existing.agent = agent;
      existing.cwd = cwd;
      return existing;
    }
    const session: AcpSession = { id, agent, cwd, turns: 0 };
    this.byId.set(id, session);
    return session;
  }

  get(id: string): AcpSession | undefined {
    return this.byId.get(id);
  }

  /** Gives the session the MCP servers `hold` keeps, dropping the ones it had. */
  holdMcps(session: AcpSession, hold: Client | undefined): void {
    const previous = session.mcpHold;
    session.mcpHold = hold;
    if (previous && previous !== hold) void previous.close();
  }

  /** The editor went away: nobody reads these runs' answers or answers their questions. */
  cancelAll(): Promise<void> {
    return Promise.all([...this.byId.values()].map((s) => s.turn?.cancel())).then(() => undefined);
  }
}
