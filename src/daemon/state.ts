// What the daemon's handlers share: paths, the loaded config, the current
// runtime, the open sessions (which outlive reloads), and the logger.
import type { AgentEvent } from "../agent/events.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { Session, SessionTable } from "../runtime/sessions.ts";
import type { LoadedConfig } from "./config/load.ts";
import type { HomePaths } from "./home.ts";
import type { Logger } from "./log.ts";

export interface DaemonState {
  readonly paths: HomePaths;
  readonly log: Logger;
  readonly startedAt: number;
  config: LoadedConfig;
  runtime: Runtime;
  readonly sessions: SessionTable;
  /** Rebuild from disk; throws (and keeps the old config and runtime) on failure. */
  reload(): Promise<void>;
  /** Every agent event of every run passes here (event subscription hangs off it). */
  onAgentEvent(session: Session, event: AgentEvent): void;
}
