// The daemon process: scaffold the home, load config, bind endpoints, serve
// connections, and shut down cleanly on SIGINT/SIGTERM (docs/home.md#shutdown).
import { homePaths, resolveHome, scaffoldHome } from "./home.ts";
import { removeStaleTempFiles } from "../base/atomic-file.ts";
import { daemonHandlers } from "./handlers/index.ts";
import { createLogger, type LogLevel } from "./log.ts";
import { bindEndpoints, refuseIfRunning } from "./endpoints.ts";

/** What `crabtalk daemon` catches: the one module the CLI loads of the daemon is this one (docs/architecture.md). */
export { DaemonAlreadyRunningError } from "./endpoints.ts";
import { writeRunFile } from "./run-files.ts";
import { VERSION } from "../version.ts";
import { createState } from "./state.ts";
import { watchLocalFiles } from "./local-watch.ts";
import { loadCrons } from "./cron/store.ts";
import { keepSearchIndex } from "./search-index.ts";
import { connectionServer } from "./connections.ts";
import { tcpPolicy } from "./tcp-peers.ts";
import { applyDaemonUmask } from "./home-modes.ts";
import { homeHider } from "./hide-home.ts";
import { confinedHandlers } from "./confine.ts";
import { NO_ORIGIN, toolOrigin } from "./tool-origin.ts";
import type { FramedConnection } from "../transport/connection.ts";

const SHUTDOWN_GRACE_MS = 4000;

export interface DaemonOptions {
  env?: Record<string, string | undefined>;
  logLevel?: LogLevel;
}

export async function runDaemon(options: DaemonOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  // Everything the daemon creates is its owner's alone (home-modes.ts).
  applyDaemonUmask();
  const paths = homePaths(resolveHome(env));
  // Before anything starts (log file, MCP servers, components): a second daemon on a busy home leaves at once.
  await refuseIfRunning(paths.socket);
  // A background daemon's stderr is a file (`logs/daemon.out`): writing every
  // line there too would only duplicate daemon.log, unrotated.
  const log = createLogger({ file: paths.daemonLog, level: options.logLevel ?? "info", stderr: env.CRABTALK_LOG_STDERR !== "0", batch: true });
  scaffoldHome(paths.home, log);
  // One failing client, tool or provider must never take the daemon down:
  // whatever escapes its own error handling is logged, not fatal.
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { error: describeError(reason) }));
  process.on("uncaughtException", (err) => log.error("uncaught exception", { error: describeError(err) }));

  // Listened for before the socket exists: a SIGTERM during start-up (a
  // service manager, `crabtalk stop`) then shuts down cleanly once start-up
  // is done, instead of killing the daemon with its run files left behind.
  const stopSignal = new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });

  const state = await createState(paths, env, log);
  const handlers = daemonHandlers(state);
  const shutdown = new AbortController();
  // Connections are accepted as soon as the socket is bound, but served only
  // once start-up is complete (crons loaded), so no client sees a half-started
  // daemon; their early frames wait in the connection.
  let markStarted!: () => void;
  const ready = new Promise<void>((resolve) => (markStarted = resolve));
  // Limits are read at start: a reload does not change them.
  const connections = connectionServer({
    shutdown: shutdown.signal,
    limits: state.config.config.system.limits,
    log,
    scrubError: homeHider(paths.home),
  });
  const tcp = tcpPolicy(state.config.config.system.tcp, log);
  if (tcp.warning) log.warn(tcp.warning);
  // A connection from a tool's process tree is confined to its agent's scope (docs/security.md);
  // its origin is looked up at once, while the peer process is surely alive.
  const handlersFor = (conn: FramedConnection) =>
    state.host.toolProcesses.empty
      ? handlers
      : confinedHandlers(
          handlers,
          state,
          toolOrigin(conn.peerSocket, state.host.toolProcesses).catch(() => NO_ORIGIN),
        );
  // Remote connections are served like local ones: the same limits, the daemon's handlers within the token's scope.
  state.remote.attach({ handlers, accept: (channel, served) => void ready.then(() => connections.accept(channel, served)) });
  const endpoints = await bindEndpoints(
    paths,
    (conn) => {
      const served = handlersFor(conn);
      void ready.then(() => connections.accept(conn, served));
    },
    tcp,
  ).catch(async (err: unknown) => {
    // Lost the race to another daemon started at the same moment: end the MCP servers already started.
    await state.host.runtime.mcp?.close().catch(() => {});
    throw err;
  });
  const removeRunFiles = [writeRunFile(paths.pidFile, String(process.pid)), writeRunFile(paths.versionFile, VERSION)];
  // Only now, with the socket ours, can no other daemon be mid-rewrite in sessions/.
  for (const leftover of await removeStaleTempFiles(state.paths.sessions)) log.warn("removed a temp file left by a crash", { file: leftover });
  state.crons.start(loadCrons(paths.crons, log));
  await state.remote.applyAtStart(state.config.config.system.remote);
  // Watched before any client is served: a prompt or skill file written as
  // soon as the daemon answers must not be missed.
  const watcher = watchLocalFiles(state, [paths.localSkills, paths.localAgents]);
  markStarted();
  await state.components.start();
  const searchIndex = keepSearchIndex(state.host.searchIndex, state.host.sessions, log);
  await state.services.resume(log);
  log.info("listening", { home: paths.home, socket: paths.socket, port: endpoints.tcpPort, pid: process.pid });

  log.info("shutting down", { signal: await stopSignal });

  endpoints.close();
  state.remote.stop();
  watcher.close();
  state.crons.stop();
  searchIndex.stop();
  shutdown.abort(new Error("daemon is shutting down"));
  for (const remove of removeRunFiles) remove();
  let grace: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([connections.drained(), new Promise((resolve) => (grace = setTimeout(resolve, SHUTDOWN_GRACE_MS)))]);
  clearTimeout(grace);
  endpoints.dropConnections();
  await state.host.runtime.mcp?.close().catch(() => {});
  await state.services.shutdown().catch(() => {});
  await state.components.stop().catch(() => {});
  await state.host.searchIndex?.save();
  log.info("stopped");
  return 0;
}

function describeError(err: unknown): string {
  return err instanceof Error ? `${err.message}${err.stack ? ` ${err.stack.split("\n")[1]?.trim() ?? ""}` : ""}` : String(err);
}
