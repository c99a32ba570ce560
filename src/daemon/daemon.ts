// The daemon process: scaffold the home, load config, bind endpoints, serve
// connections, and shut down cleanly on SIGINT/SIGTERM (daemon.md §2).
import { homePaths, resolveHome, scaffoldHome } from "./home.ts";
import { removeStaleTempFiles } from "../session/atomic.ts";
import { daemonHandlers } from "./handlers/index.ts";
import { createLogger, type LogLevel } from "./log.ts";
import { bindEndpoints } from "./endpoints.ts";
import { writeRunFile } from "./run-files.ts";
import { VERSION } from "../version.ts";
import { createState } from "./state.ts";
import { watchLocalFiles } from "./local-watch.ts";
import { loadCrons } from "./cron/store.ts";
import { serveConnection } from "../protocol/serve.ts";

const SHUTDOWN_GRACE_MS = 4000;

export interface DaemonOptions {
  env?: Record<string, string | undefined>;
  logLevel?: LogLevel;
}

export async function runDaemon(options: DaemonOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const paths = homePaths(resolveHome(env));
  // A background daemon's stderr is a file (`logs/daemon.out`): writing every
  // line there too would only duplicate daemon.log, unrotated.
  const log = createLogger({ file: paths.daemonLog, level: options.logLevel ?? "info", stderr: env.CRABTALK_LOG_STDERR !== "0" });
  scaffoldHome(paths.home, (msg: string) => log.warn(msg));
  // One failing client, tool or provider must never take the daemon down:
  // whatever escapes its own error handling is logged, not fatal.
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { error: describeError(reason) }));
  process.on("uncaughtException", (err) => log.error("uncaught exception", { error: describeError(err) }));

  const state = await createState(paths, env, log);
  const handlers = daemonHandlers(state);
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
  const removeRunFiles = [writeRunFile(paths.pidFile, String(process.pid)), writeRunFile(paths.versionFile, VERSION)];
  // Only now, with the socket ours, can no other daemon be mid-rewrite in sessions/.
  for (const leftover of await removeStaleTempFiles(state.paths.sessions)) log.warn("removed a temp file left by a crash", { file: leftover });
  state.crons.start(loadCrons(paths.crons, (m) => log.warn(m)));
  const watcher = watchLocalFiles(state, [paths.localSkills, paths.localAgents]);
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
  watcher.close();
  state.crons.stop();
  shutdown.abort(new Error("daemon is shutting down"));
  for (const remove of removeRunFiles) remove();
  let grace: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled([...open]),
    new Promise((resolve) => (grace = setTimeout(resolve, SHUTDOWN_GRACE_MS))),
  ]);
  clearTimeout(grace);
  endpoints.dropConnections();
  await state.host.runtime.mcp?.close().catch(() => {});
  log.info("stopped");
  return 0;
}

function describeError(err: unknown): string {
  return err instanceof Error ? `${err.message}${err.stack ? ` ${err.stack.split("\n")[1]?.trim() ?? ""}` : ""}` : String(err);
}
