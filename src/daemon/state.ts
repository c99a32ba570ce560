// What the daemon's handlers share: paths, the loaded config, the logger and
// the reload entry point. Later layers (runtime, sessions) hang off this.
import type { HomePaths } from "../daemon/home.ts";
import type { LoadedConfig } from "./config/load.ts";
import type { Logger } from "./log.ts";

export interface DaemonState {
  readonly paths: HomePaths;
  readonly log: Logger;
  readonly startedAt: number;
  config: LoadedConfig;
  /** Rebuild from disk; throws (and keeps the old state) on failure. */
  reload(): Promise<void>;
  activeSessions(): number;
  registeredAgents(): number;
}
