// The daemon process: scaffold the home, load config, bind endpoints, serve
// connections, and shut down cleanly on SIGINT/SIGTERM (daemon.md §2).
import { homePaths, resolveHome, scaffoldHome } from "./home.ts";
import { loadConfigFile } from "./config/load.ts";
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

  const state: DaemonState = {
    paths,
    log,
    startedAt: Date.now(),
    config: loadConfigFile(paths.config),
    async reload() {
      state.config = loadConfigFile(paths.config);
      log.info("reloaded", { model: state.config.config.system.crab.model ?? "" });
    },
    activeSessions: () => 0,
    registeredAgents: () => 1,
  };
  if (!state.config.config.system.crab.model) {
    log.warn(`no model configured: set [system.crab] model and a [provider.*] in ${paths.config}`);
  }

  const handlers: Handlers = { ...lifecycleHandlers(state) };
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
  shutdown.abort();
  removePidFile();
  let grace: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled([...open]),
    new Promise((resolve) => (grace = setTimeout(resolve, SHUTDOWN_GRACE_MS))),
  ]);
  clearTimeout(grace);
  log.info("stopped");
  return 0;
}
