// Spawning and stopping real daemons for the benchmarks, each on its own
// temporary CRABTALK_HOME. Every daemon started here is tracked so that a
// failure or Ctrl-C still SIGTERMs it and removes its home.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect, type Endpoint } from "../src/transport/connect.ts";

export const REPO = resolve(import.meta.dir, "..");
export const MAIN = join(REPO, "src/main.ts");

/** How to start the daemon from source: the running bun on src/main.ts. */
export const SOURCE_COMMAND = [process.execPath, MAIN];

/** The compiled binary (`bun run build`), or CRABTALK_BENCH_BINARY when set. */
export function compiledBinary(): string | undefined {
  const candidate = process.env.CRABTALK_BENCH_BINARY || join(REPO, "dist/crabtalk");
  return existsSync(candidate) ? candidate : undefined;
}

export interface BenchDaemon {
  home: string;
  socket: string;
  portFile: string;
  proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
  /** performance.now() taken just before the spawn. */
  spawnedAt: number;
  /** The tail of the daemon's stderr (for error messages). */
  stderrTail(): string;
}

const live = new Set<BenchDaemon>();
const STDERR_TAIL_BYTES = 16 * 1024;

/** Starts a daemon on a new temporary home (with `config` as its config.toml), or on `home` (a restart). */
export function spawnDaemon(command: string[], options: { config?: string; home?: string } = {}): BenchDaemon {
  const home = options.home ?? mkdtempSync(join(tmpdir(), "crabtalk-bench-"));
  let proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
  if (options.config !== undefined) writeFileSync(join(home, "config.toml"), options.config);
  const spawnedAt = performance.now();
  try {
    proc = Bun.spawn([...command, "daemon"], {
      env: { ...process.env, CRABTALK_HOME: home },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw err;
  }
  // Drain stderr from the start so the daemon never blocks on a full pipe; keep a bounded tail.
  let tail = "";
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of proc.stderr) {
        tail += decoder.decode(chunk, { stream: true });
        if (tail.length > STDERR_TAIL_BYTES) tail = tail.slice(-STDERR_TAIL_BYTES);
      }
    } catch {
      // pipe closed
    }
  })();
  const daemon: BenchDaemon = {
    home,
    socket: join(home, "run/crabtalk.sock"),
    portFile: join(home, "run/crabtalk.port"),
    proc,
    spawnedAt,
    stderrTail: () => tail,
  };
  live.add(daemon);
  return daemon;
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMEOUT>((r) => (timer = setTimeout(() => r(TIMEOUT), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
export const TIMEOUT = Symbol("timeout");

/**
 * One fresh connection, one Ping. Resolves to performance.now() at the moment
 * the Pong arrived, or undefined when the attempt failed or took over `ms`.
 */
export async function pingOnce(endpoint: Endpoint, ms = 1000): Promise<number | undefined> {
  const attempt = (async () => {
    const client = new Client(await connect(endpoint));
    try {
      await client.ping();
      return performance.now();
    } finally {
      void client.close().catch(() => {});
    }
  })();
  attempt.catch(() => {}); // a late failure after a timeout must not surface as unhandled
  try {
    const result = await withTimeout(attempt, ms);
    return result === TIMEOUT ? undefined : result;
  } catch {
    return undefined;
  }
}

/**
 * Polls the daemon's Unix socket every `intervalMs` (a fresh connect each
 * time) until a Ping is answered; returns the time of the first Pong.
 * Throws if the daemon exits or `timeoutMs` passes first.
 */
export async function waitForFirstPong(d: BenchDaemon, timeoutMs = 15_000, intervalMs = 2): Promise<number> {
  const maxAttempts = Math.ceil(timeoutMs / intervalMs) + 1;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (d.proc.exitCode !== null) {
      throw new Error(`daemon exited with ${d.proc.exitCode} before answering:\n${d.stderrTail()}`);
    }
    const remaining = timeoutMs - (performance.now() - d.spawnedAt);
    if (remaining <= 0) break;
    const pong = await pingOnce({ unix: d.socket }, Math.min(1000, remaining));
    if (pong !== undefined) return pong;
    await Bun.sleep(intervalMs);
  }
  throw new Error(`daemon did not answer a Ping within ${timeoutMs} ms:\n${d.stderrTail()}`);
}

/** The TCP port from run/crabtalk.port, polled briefly in case it lags the socket. */
export async function readPort(d: BenchDaemon, timeoutMs = 5000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (existsSync(d.portFile)) {
      const port = Number(readFileSync(d.portFile, "utf8").trim());
      if (Number.isInteger(port) && port > 0) return port;
    }
    await Bun.sleep(10);
  }
  throw new Error(`no port in ${d.portFile}`);
}

/** VmRSS of a live process in MiB (Linux /proc), or undefined elsewhere. */
export function rssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SIGTERM, wait up to `graceMs`, then SIGKILL; removes the temp home unless
 * `keepHome` (the same home is started again).
 * Resolves to the ms from SIGTERM to exit (undefined if it had already exited
 * or needed SIGKILL).
 */
export async function stopDaemon(d: BenchDaemon, graceMs = 6000, keepHome = false): Promise<number | undefined> {
  try {
    if (d.proc.exitCode === null && d.proc.signalCode === null) {
      const t0 = performance.now();
      d.proc.kill("SIGTERM");
      const result = await withTimeout(d.proc.exited, graceMs);
      if (result !== TIMEOUT) return performance.now() - t0;
      d.proc.kill("SIGKILL");
      await withTimeout(d.proc.exited, 2000);
    }
    return undefined;
  } finally {
    if (!keepHome) rmSync(d.home, { recursive: true, force: true });
    live.delete(d);
  }
}

const cleanups = new Set<() => Promise<void>>();

/**
 * Tracks a resource not started by spawnDaemon (a test-support daemon, a fake
 * LLM server, a temp dir) so that stopAll() also releases it. Returns the
 * release function: idempotent, and it untracks the resource; call it in the
 * owner's finally.
 */
export function trackCleanup(release: () => Promise<void> | void): () => Promise<void> {
  let done: Promise<void> | undefined;
  const run = (): Promise<void> => {
    cleanups.delete(run);
    done ??= (async () => release())();
    return done;
  };
  cleanups.add(run);
  return run;
}

/** Stops every daemon still running and runs every tracked cleanup (used on failure and on signals). */
export async function stopAll(graceMs = 6000): Promise<void> {
  await Promise.all([...[...live].map((d) => stopDaemon(d, graceMs).catch(() => {})), ...[...cleanups].map((run) => run().catch(() => {}))]);
}
