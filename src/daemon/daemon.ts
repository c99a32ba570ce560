// The daemon process: scaffold the home, load config, bind endpoints, serve
// connections, and shut down cleanly on SIGINT/SIGTERM (daemon.md §2).
import { homePaths, resolveHome, scaffoldHome } from "./home.ts";
import { mkdirSync, realpathSync } from "node:fs";
import { loadConfigFile, type LoadedConfig } from "./config/load.ts";
import { buildRuntime, NO_PROVIDER_HINT } from "./build-runtime.ts";
import { Host } from "../runtime/host.ts";
import { EventBus } from "./event-bus.ts";
import { removeStaleTempFiles } from "../session/atomic.ts";
import { sessionHandlers } from "./handlers/sessions.ts";
import { agentHandlers } from "./handlers/agents.ts";
import { createLogger, type LogLevel } from "./log.ts";
import { bindEndpoints } from "./endpoints.ts";
import { writePidFile } from "./pidfile.ts";
import { lifecycleHandlers } from "./handlers/lifecycle.ts";
import type { DaemonState } from "./state.ts";
import { serveConnection } from "../protocol/serve.ts";
import type { Handlers } from "../protocol/server.ts";

const SHUTDOWN_GRACE_MS = 4000;

export interface DaemonOptions {
  env?: Record<string, string | undefined>;
  logLevel?: LogLevel;
}

export async function runDaemon(options: DaemonOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const paths = homePaths(resolveHome(env));
  const log = createLogger({ file: paths.daemonLog, level: options.logLevel ?? "info" });
  scaffoldHome(paths.home, (msg: string) => log.warn(msg));

  mkdirSync(paths.sessions, { recursive: true });
  // Real path, so that files named by clients (resolved with realpath) compare equal.
  const sessionsDir = realpathSync(paths.sessions);
  const host = new Host(sessionsDir);
  const events = new EventBus();
  const build = (loaded: LoadedConfig) =>
    buildRuntime({ loaded, host, publish: (e) => events.publish(e), paths, env, log, ollamaUrl: env.CRABTALK_OLLAMA_URL });
  const initial = loadConfigFile(paths.config, env);
  host.runtime = await build(initial);
  const state: DaemonState = {
    paths: { ...paths, sessions: sessionsDir },
    log,
    startedAt: Date.now(),
    config: initial,
    host,
    events,
    async reload() {
      const loaded = loadConfigFile(paths.config, env);
      const runtime = await build(loaded);
      state.config = loaded;
      host.runtime = runtime;
      log.info("reloaded", { model: runtime.activeModel ?? "", agents: runtime.agents.size });
    },
  };
  if (!host.runtime.activeModel) log.warn(NO_PROVIDER_HINT);

  const handlers: Handlers = {
    ...lifecycleHandlers(state),
    ...sessionHandlers(state),
    ...agentHandlers(state),
    subscribeEvents: (_req, ctx) => events.subscribe(ctx.signal),
  };
  const shutdown = new AbortController();
  const open = new Set<Promise<void>>();
  const endpoints = await bindEndpoints(paths, (conn) => {
    const served = serveConnection(conn, {
      handlers,
      shutdown: shutdown.signal,
      onError: (m) => log.debug(m),
    }).finally(() => {
      open.delete(served);
      void conn.close();
    });
    open.add(served);
  });
  const removePidFile = writePidFile(paths.pidFile);
  // Only now, with the socket ours, can no other daemon be mid-rewrite in sessions/.
  for (const leftover of await removeStaleTempFiles(sessionsDir)) log.warn("removed a temp file left by a crash", { file: leftover });
  log.info("listening", { home: paths.home, socket: paths.socket, port: endpoints.tcpPort, pid: process.pid });

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info("shutting down", { signal });
      resolve();
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });

  endpoints.close();
  shutdown.abort(new Error("daemon is shutting down"));
  removePidFile();
  let grace: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled([...open]),
    new Promise((resolve) => (grace = setTimeout(resolve, SHUTDOWN_GRACE_MS))),
  ]);
  clearTimeout(grace);
  endpoints.dropConnections();
  log.info("stopped");
  return 0;
}
