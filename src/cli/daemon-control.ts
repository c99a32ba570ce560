// Starting and stopping the daemon for `crabtalk start|stop|restart|uninstall`:
// as a user service where the machine has a service manager, else as a
// detached background process. The CLI manages the process here, and talks to
// the daemon only through the protocol.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { userInfo } from "node:os";
import { DEFAULT_TCP_PORT, defaultHome, homePaths, resolveHome, userHome, type HomePaths } from "../base/home-paths.ts";
import { detectManager, type NoManager, type ServiceManager } from "../service/managers.ts";
import { DAEMON_LABEL, type ServiceSpec } from "../service/spec.ts";
import { connectClient, daemonVersion } from "./connect.ts";
import { warnUnknownKeys } from "./config-warnings.ts";
import type { LoadedConfig } from "../config/load.ts";
import { VERSION } from "../version.ts";
import { lastLines } from "./log-tail.ts";

const START_WAIT_MS = 15_000;
const STOP_WAIT_MS = 10_000;

type Say = (line: string) => void;
type Env = Record<string, string | undefined>;

export async function daemonAnswers(): Promise<boolean> {
  try {
    const client = await connectClient({});
    try {
      await client.ping();
    } finally {
      await client.close();
    }
    return true;
  } catch {
    return false;
  }
}

async function waitFor(answering: boolean, ms: number, gaveUp: () => boolean = () => false): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await daemonAnswers()) === answering) return true;
    if (Date.now() > deadline || gaveUp()) return false;
    await Bun.sleep(50);
  }
}

/** argv that re-runs this program: the compiled binary alone, or bun + script. */
export function selfCommand(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, Bun.main];
}

export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs") || Bun.main.includes("~BUN");
}

export function readPid(paths: HomePaths): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(paths.pidFile, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function readPort(paths: HomePaths): number | undefined {
  try {
    const port = Number.parseInt(readFileSync(paths.portFile, "utf8"), 10);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

export function homeOf(env: Env = process.env): HomePaths {
  return homePaths(resolveHome(env));
}

export function findManager(env: Env = process.env): Promise<ServiceManager | NoManager> {
  return detectManager(DAEMON_LABEL, env);
}

/** The daemon as a user service: this binary, this home, the caller's PATH. */
export async function daemonServiceSpec(paths: HomePaths, env: Env): Promise<ServiceSpec> {
  const service = (await checkedConfig(paths))?.config.system.service ?? {};
  const serviceEnv: Record<string, string> = {};
  if (paths.home !== defaultHome(env)) serviceEnv.CRABTALK_HOME = paths.home;
  if (env.PATH) serviceEnv.PATH = env.PATH;
  return {
    label: DAEMON_LABEL,
    description: "crabtalk agent daemon",
    argv: [...selfCommand(), "daemon"],
    // The user's home: what the daemon runs must never start in the crabtalk home, which the tool sandbox hides.
    workingDirectory: userHome(env),
    env: serviceEnv,
    logFile: outFile(paths),
    memoryMax: service.memory_max,
    memoryHigh: service.memory_high,
  };
}

/**
 * The home's config, validated before anything is started: a broken file is
 * reported here, naming the key, instead of as a service that keeps failing.
 * `then` is what to run once it is fixed.
 */
async function checkedConfig(paths: HomePaths, then = "crabtalk start"): Promise<LoadedConfig | undefined> {
  if (!existsSync(paths.config)) return undefined;
  const { loadConfigFile } = await import("../config/load.ts");
  try {
    return loadConfigFile(paths.config);
  } catch (err) {
    throw new Error(`${(err as Error).message} (fix ${paths.config}, then run ${then} again)`);
  }
}

/**
 * Before a running daemon is stopped to be replaced (restart, or start over
 * a daemon of another version): the config the new one will load must load,
 * or the user is left with nothing running (issue 19). Refuses naming the key.
 */
export async function checkConfigBeforeReplacing(then: string, env: Env = process.env): Promise<void> {
  const paths = homeOf(env);
  try {
    const loaded = await checkedConfig(paths, then);
    if (loaded) warnUnknownKeys(loaded.raw);
  } catch (err) {
    if (!(await daemonAnswers())) throw err;
    const pid = readPid(paths);
    throw new Error(`${(err as Error).message}; the running daemon${pid ? ` (pid ${pid})` : ""} was left as it is`);
  }
}

/** A crash leaves run/crabtalk.pid and the socket behind; nothing answers on them. */
function removeCrashLeftovers(paths: HomePaths): boolean {
  const found = [paths.pidFile, paths.socket, paths.versionFile].filter((p) => existsSync(p));
  for (const p of found) rmSync(p, { force: true });
  return found.length > 0;
}

/** The daemon's stdout and stderr when no service manager catches them. */
function outFile(paths: HomePaths): string {
  return `${paths.logsDir}/daemon.out`;
}

/** Starts the daemon detached; the returned function tells whether it has exited already. */
function spawnDetached(paths: HomePaths, env: Env): () => boolean {
  mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
  // Truncated at each start: it holds only what this daemon printed outside daemon.log.
  const out = openSync(outFile(paths), "w", 0o600);
  const self = selfCommand();
  const child = spawn(self[0]!, [...self.slice(1), "daemon"], {
    detached: true,
    stdio: ["ignore", out, out],
    cwd: userHome(env),
    env: { ...process.env, CRABTALK_LOG_STDERR: "0" },
  });
  child.unref();
  return () => child.exitCode !== null || child.signalCode !== null;
}

/** `loginctl enable-linger` state, read where systemd-logind keeps it. */
function lingers(): boolean {
  try {
    return existsSync(`/var/lib/systemd/linger/${userInfo().username}`);
  } catch {
    return true;
  }
}

/** `configWarned`: the caller has checked the config and reported its unknown keys already. */
export async function startDaemon(say: Say, env: Env = process.env, options: { configWarned?: boolean } = {}): Promise<void> {
  const paths = homeOf(env);
  if (await daemonAnswers()) {
    const running = daemonVersion(env);
    if (running === undefined || running === VERSION) {
      say(`crabtalk daemon is already running (pid ${readPid(paths) ?? "unknown"}), home ${paths.home}`);
      await checkedConfig(paths, "crabtalk reload").then(
        (loaded) => loaded && warnUnknownKeys(loaded.raw),
        (err: Error) => process.stderr.write(`crabtalk: warning: ${err.message}; the daemon keeps the config it loaded\n`),
      );
      return;
    }
    // After an upgrade: the old daemon is replaced, but only by one whose config loads.
    await checkConfigBeforeReplacing("crabtalk start", env);
    say(`replacing the running daemon (crabtalk ${running}) with crabtalk ${VERSION}`);
    await stopDaemon(() => {}, env);
  } else if (!options.configWarned) {
    const loaded = await checkedConfig(paths);
    if (loaded) warnUnknownKeys(loaded.raw);
  }
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const spec = await daemonServiceSpec(paths, env);
  const manager = await findManager(env);
  if (removeCrashLeftovers(paths)) say("cleaned up the pid file and socket of a daemon that did not stop cleanly");
  // launchd writes stderr to a file of its own: keep log lines in daemon.log only.
  if (manager.kind === "launchd") spec.env.CRABTALK_LOG_STDERR = "0";
  let exited = () => false;
  if (manager.kind === "none") exited = spawnDetached(paths, env);
  else await manager.install(spec);
  if (!(await waitFor(true, START_WAIT_MS, exited))) {
    if (exited()) {
      const said = lastLines(outFile(paths), 5).join("\n").trim();
      throw new Error(`the daemon exited at start${said ? `:\n${said}` : ""}`);
    }
    const hint = manager.kind === "systemd" ? ` and 'systemctl --user status ${DAEMON_LABEL}'` : "";
    throw new Error(`the daemon did not answer within ${START_WAIT_MS / 1000}s; see 'crabtalk logs'${hint}`);
  }
  say(`crabtalk daemon started (pid ${readPid(paths) ?? "unknown"}), home ${paths.home}`);
  if (manager.kind === "none") {
    say(`${manager.reason}: started in the background; it will not restart after a crash or at login`);
  } else {
    say(`runs as a ${manager.noun}: ${manager.definition} (restarts after a crash, starts at login)`);
    if (manager.kind === "systemd" && !lingers()) {
      say(`to keep it running after you log out: loginctl enable-linger ${userInfo().username}`);
    }
  }
  const port = readPort(paths);
  if (port !== undefined && port !== DEFAULT_TCP_PORT) {
    say(`TCP port ${DEFAULT_TCP_PORT} is taken by another program; the daemon listens on 127.0.0.1:${port} instead`);
  }
}

/** Stops the daemon; a service is disabled too so it does not come back at login. */
export async function stopDaemon(say: Say, env: Env = process.env): Promise<void> {
  const paths = homeOf(env);
  const manager = await findManager(env);
  if (manager.kind !== "none" && (await manager.installed())) {
    await manager.stop();
    if (await waitFor(false, STOP_WAIT_MS)) {
      say(`crabtalk daemon stopped; its ${manager.noun} is disabled until 'crabtalk start'`);
      return;
    }
  }
  if (!existsSync(paths.pidFile) && !(await daemonAnswers())) {
    say("crabtalk daemon is not running");
    return;
  }
  // A pid file left by a crash may name a pid since reused by some other
  // process: signal it only while a daemon answers on this home's socket.
  const pid = readPid(paths);
  if (!(await daemonAnswers()) || pid === undefined) {
    rmSync(paths.pidFile, { force: true });
    say("crabtalk daemon is not running (removed a stale pid file)");
    return;
  }
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    say("crabtalk daemon is not running (stale pid file)");
    return;
  }
  if (!(await waitFor(false, STOP_WAIT_MS))) throw new Error(`the daemon (pid ${pid}) did not stop within ${STOP_WAIT_MS / 1000}s`);
  const deadline = Date.now() + STOP_WAIT_MS;
  while (existsSync(paths.pidFile) && Date.now() < deadline) await Bun.sleep(20);
  say("crabtalk daemon stopped");
}
