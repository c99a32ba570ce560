// What the daemon's handlers share: paths, the loaded config, the host (open
// sessions, pending asks, the current runtime), the event bus and the logger.
import { mkdirSync, realpathSync } from "node:fs";
import { Host } from "../runtime/host.ts";
import type { McpPool } from "../runtime/mcp/types.ts";
import { buildRuntime } from "./build-runtime.ts";
import type { Env } from "../config/expand.ts";
import { loadConfigFile, type LoadedConfig } from "../config/load.ts";
import { EventBus } from "./event-bus.ts";
import { CronScheduler } from "./cron/scheduler.ts";
import { fireCron } from "./cron/fire.ts";
import type { HomePaths } from "./home.ts";
import type { Logger } from "./log.ts";
import { ComponentDiscovery } from "./components/discovery.ts";
import { SenderPools } from "../runtime/mcp/sender-pools.ts";
import { Services } from "./components/services.ts";
import { Mutex } from "../runtime/mutex.ts";
import pkg from "../../package.json" with { type: "json" };
import { LedgerRecorder } from "./usage/recorder.ts";
import { ConversationIndex } from "../runtime/search/conversation-index.ts";
import { RemoteAccess } from "../remote/remote-access.ts";

export interface DaemonState {
  readonly paths: HomePaths;
  readonly log: Logger;
  readonly startedAt: number;
  config: LoadedConfig;
  readonly host: Host;
  readonly events: EventBus;
  /** Cron entries and their timers: the daemon's, untouched by reloads. */
  readonly crons: CronScheduler;
  readonly env: Env;
  /** Components found through run/<name>.port, connected between reloads. */
  readonly components: ComponentDiscovery;
  /** MCP servers attached to a sender's runs by AttachMcps, for as long as their connection is open. */
  readonly senderMcps: SenderPools;
  /** One hub or package operation at a time (they share <home>/hub and packages/). */
  readonly packagesLock: Mutex;
  /** Package commands run as services (a service manager's, or supervised here). */
  readonly services: Services;
  /** Remote tokens and the remote listener (docs/remote.md). */
  readonly remote: RemoteAccess;
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
  // The daemon's log is the runtime's, handed over once: every run reports there, delegated ones too.
  const host = new Host(sessionsDir, log);
  host.searchIndex = new ConversationIndex(sessionsDir, paths.searchIndex, log, host.sessions.titleRenames);
  const events = new EventBus();
  const components = new ComponentDiscovery(paths.runDir, { log, clientVersion: pkg.version });
  const senderMcps = new SenderPools();
  const build = (loaded: LoadedConfig, mcp?: { inBackground?: boolean; keep?: McpPool }) =>
    buildRuntime({
      loaded,
      host,
      publish: (e) => events.publish(e),
      paths,
      env,
      log,
      ollamaUrl: env.CRABTALK_OLLAMA_URL,
      components: components.pool,
      senderMcps,
      mcpInBackground: mcp?.inBackground,
      mcp: mcp?.keep,
    });
  // Today's spend is read from the ledger while the config loads and the runtime is built.
  const usage = LedgerRecorder.open(paths.usageLedger, {
    dailyLimitUsd: () => host.runtime.dailyBudgetUsd,
    log,
    budgetWarning: (step, message) => {
      log.warn(message, { agent: step.agent, session: step.session });
      events.publish({ agent: step.agent, session: step.session, kind: "budget_warning", content: message });
    },
  });
  const initial = loadConfigFile(paths.config, env);
  // MCP servers connect in the background: the daemon answers at once.
  const first = await build(initial, { inBackground: true });
  host.usage = await usage;
  // The configured MCP servers of the runtime in use: what a reload keeps or closes.
  let servers = first.mcpServers;
  const reloads = new Mutex();
  host.runtime = first;
  void first.whenMcpReady?.then((ready) => {
    if (host.runtime === first) host.runtime = ready; // unless a reload replaced it meanwhile
  });
  if (!host.runtime.activeModel) log.warn(host.runtime.noModelHint);
  const state: DaemonState = {
    paths: { ...paths, sessions: sessionsDir },
    log,
    startedAt: Date.now(),
    config: initial,
    host,
    events,
    env,
    components,
    senderMcps,
    packagesLock: new Mutex(),
    services: new Services(paths, env),
    remote: new RemoteAccess(paths, log),
    crons: new CronScheduler({
      path: paths.crons,
      fire: (entry) => fireCron(host, entry, (session) => state.crons.retarget(entry.id, session)),
      log,
    }),
    async reload(options = {}) {
      // One at a time, each reading the file when its turn comes: a reload that
      // read the file before a change was written must not install its older
      // config after the change's own reload (the change would be lost).
      const release = await reloads.lock();
      try {
        const loaded = loadConfigFile(paths.config, env);
        const runtime = await build(loaded, { keep: options.keepMcp ? servers : undefined });
        try {
          // The listener follows the config; when it cannot, the reload fails and the old one stays.
          await state.remote.apply(loaded.config.system.remote);
        } catch (err) {
          if (runtime.mcpServers !== servers) void runtime.mcpServers.close();
          throw err;
        }
        const previous = servers;
        state.config = loaded;
        servers = runtime.mcpServers;
        host.runtime = runtime;
        // The old runtime's MCP servers go; a call still running on them fails alone.
        if (previous !== runtime.mcpServers) void previous.close();
        log.info("reloaded", { model: runtime.activeModel ?? "", agents: runtime.agents.size });
      } finally {
        release();
      }
    },
  };
  return state;
}
