// What the daemon's handlers share: paths, the loaded config, the host (open
// sessions, pending asks, the current runtime), the event bus and the logger.
import { mkdirSync, realpathSync } from "node:fs";
import { Host } from "../runtime/host.ts";
import type { McpPool } from "../runtime/mcp/types.ts";
import { buildRuntime } from "./build-runtime.ts";
import type { Env } from "./config/expand.ts";
import { loadConfigFile, type LoadedConfig } from "./config/load.ts";
import { EventBus } from "./event-bus.ts";
import { CronScheduler } from "./cron/scheduler.ts";
import { fireCron } from "./cron/fire.ts";
import type { HomePaths } from "./home.ts";
import type { Logger } from "./log.ts";

export interface DaemonState {
  readonly paths: HomePaths;
  readonly log: Logger;
  readonly startedAt: number;
  config: LoadedConfig;
  readonly host: Host;
  readonly events: EventBus;
  /** Cron entries and their timers: the daemon's, untouched by reloads. */
  readonly crons: CronScheduler;
  /**
   * Rebuild from disk; throws (and keeps the old config and runtime) on
   * failure. `keepMcp` keeps the MCP connections (for prompt and skill files).
   */
  reload(options?: { keepMcp?: boolean }): Promise<void>;
}

/** Loads the config and builds the first runtime; throws when the config is unusable. */
export async function createState(paths: HomePaths, env: Env, log: Logger): Promise<DaemonState> {
  mkdirSync(paths.sessions, { recursive: true });
  // Real path, so that files named by clients (resolved with realpath) compare equal.
  const sessionsDir = realpathSync(paths.sessions);
  const host = new Host(sessionsDir);
  const events = new EventBus();
  const build = (loaded: LoadedConfig, mcp?: McpPool) =>
    buildRuntime({ loaded, host, publish: (e) => events.publish(e), paths, env, log, ollamaUrl: env.CRABTALK_OLLAMA_URL, mcp });
  const initial = loadConfigFile(paths.config, env);
  let current = await build(initial);
  host.runtime = current;
  if (!host.runtime.activeModel) log.warn(host.runtime.noModelHint);
  const state: DaemonState = {
    paths: { ...paths, sessions: sessionsDir },
    log,
    startedAt: Date.now(),
    config: initial,
    host,
    events,
    crons: new CronScheduler({
      path: paths.crons,
      fire: (entry) => fireCron(host, entry, (session) => state.crons.retarget(entry.id, session), (m) => log.warn(m)),
      warn: (m) => log.warn(m),
    }),
    async reload(options = {}) {
      const loaded = loadConfigFile(paths.config, env);
      const runtime = await build(loaded, options.keepMcp ? current.mcp : undefined);
      const previous = current;
      state.config = loaded;
      current = runtime;
      host.runtime = runtime;
      // The old runtime's MCP servers go; a call still running on them fails alone.
      if (previous.mcp !== runtime.mcp) void previous.mcp.close();
      log.info("reloaded", { model: runtime.activeModel ?? "", agents: runtime.agents.size });
    },
  };
  return state;
}
