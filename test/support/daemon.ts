// Starts a real daemon process on a temporary CRABTALK_HOME for a test.
import { mkdtempSync, readFileSync, existsSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "../../src/protocol/client.ts";
import { connect } from "../../src/transport/connect.ts";

export const REPO = resolve(import.meta.dir, "../..");
export const MAIN = join(REPO, "src/main.ts");

export interface TestDaemon {
  home: string;
  socket: string;
  port: number;
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** A new client over the Unix socket (or TCP when asked). */
  client(opts?: { tcp?: boolean }): Promise<Client>;
  /** SIGTERM and wait; returns the exit code. */
  stop(): Promise<number>;
  stderr(): Promise<string>;
}

export interface StartOptions {
  home?: string;
  /** config.toml content written before start. */
  config?: string;
  env?: Record<string, string>;
  /** Command to run instead of `bun src/main.ts` (e.g. a compiled binary). */
  command?: string[];
}

export function tempHome(prefix = "crabtalk-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startDaemon(options: StartOptions = {}): Promise<TestDaemon> {
  const home = options.home ?? tempHome();
  if (options.config !== undefined) {
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "config.toml"), options.config);
  }
  const command = options.command ?? [process.execPath, MAIN];
  const proc = Bun.spawn([...command, "daemon"], {
    env: { ...process.env, CRABTALK_HOME: home, ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const socket = join(home, "run/crabtalk.sock");
  const portFile = join(home, "run/crabtalk.port");
  const started = Date.now();
  // Drain both pipes from the start so a chatty daemon never blocks on a full pipe.
  const stderrText = new Response(proc.stderr).text();
  void new Response(proc.stdout).text();
  const stderr = () => stderrText;
  for (;;) {
    if (proc.exitCode !== null) {
      throw new Error(`daemon exited with ${proc.exitCode} during start: ${await stderr()}`);
    }
    if (existsSync(portFile) && (await answers(socket))) break;
    if (Date.now() - started > 15000) {
      proc.kill("SIGKILL");
      throw new Error(`daemon did not start within 15s: ${await stderr()}`);
    }
    await Bun.sleep(20);
  }
  const port = Number(readFileSync(portFile, "utf8"));
  return {
    home,
    socket,
    port,
    proc,
    async client(opts = {}) {
      const conn = opts.tcp ? await connect({ hostname: "127.0.0.1", port }) : await connect({ unix: socket });
      return new Client(conn);
    },
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      return await proc.exited;
    },
    stderr,
  };
}

async function answers(socket: string): Promise<boolean> {
  try {
    const client = new Client(await connect({ unix: socket }));
    await client.ping();
    await client.close();
    return true;
  } catch {
    return false;
  }
}

export function cleanup(home: string): void {
  rmSync(home, { recursive: true, force: true });
}
