// What the daemon's handlers share: paths, the loaded config, the host (open
// sessions, pending asks, the current runtime), the event bus and the logger.
import type { Host } from "../runtime/host.ts";
import type { LoadedConfig } from "./config/load.ts";
import type { EventBus } from "./event-bus.ts";
import type { HomePaths } from "./home.ts";
import type { Logger } from "./log.ts";

export interface DaemonState {
  readonly paths: HomePaths;
  readonly log: Logger;
  readonly startedAt: number;
  config: LoadedConfig;
  readonly host: Host;
  readonly events: EventBus;
  /** Rebuild from disk; throws (and keeps the old config and runtime) on failure. */
  reload(): Promise<void>;
}
