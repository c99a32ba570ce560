// The daemon process: home scaffolding, endpoints, refusing a second daemon,
// stale sockets, TCP port fallback, graceful shutdown, logs.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { MAIN, cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { RawConnection } from "../support/raw-proto.ts";
import { plainDaemonArgs } from "../../src/cli/daemon-command.ts";

const started: TestDaemon[] = [];
async function start(opts: Parameters<typeof startDaemon>[0] = {}) {
  const d = await startDaemon(opts);
  started.push(d);
  return d;
}

afterEach(async () => {
  for (const d of started.splice(0)) {
    await d.stop();
    cleanup(d.home);
  }
});

test("a missing home is scaffolded: template config, layout, socket 0600 in a 0700 run dir, port file", async () => {
  const home = join(tempHome(), "nested", "home");
  const d = await start({ home });
  for (const dir of ["local/agents", "local/skills", "packages", "run", "logs"]) {
    expect(statSync(join(home, dir)).isDirectory()).toBe(true);
  }
  const config = readFileSync(join(home, "config.toml"), "utf8");
  expect(config).toContain("[system.crab]");
  expect(config).toContain("# [provider.openai]");
  expect(statSync(join(home, "run")).mode & 0o777).toBe(0o700);
  expect(statSync(d.socket).mode & 0o777).toBe(0o600);
  const port = readFileSync(join(home, "run/crabtalk.port"), "utf8");
  expect(port).toMatch(/^\d+$/); // decimal, no newline
  expect(Number(port)).toBe(d.port);
  const client = await d.client({ tcp: true });
  await client.ping();
  await client.close();
});

test("a second daemon on the same home refuses to start with a clear message", async () => {
  const d = await start();
  const second = Bun.spawn([process.execPath, MAIN, "daemon"], {
    env: { ...process.env, CRABTALK_HOME: d.home },
    stdout: "pipe",
    stderr: "pipe",
  });
  const code = await second.exited;
  const stderr = await new Response(second.stderr).text();
  expect(code).not.toBe(0);
  expect(stderr).toContain("already running");
  // The first one is untouched and still owns its socket.
  const client = await d.client();
  await client.ping();
  await client.close();
});

test("a second daemon on a busy home with MCP servers exits at once, starting none of them", async () => {
  // Each start of the server appends a line to `starts`; the server then stays up, as a real one would.
  const home = tempHome();
  const starts = join(home, "mcp-starts");
  mkdirSync(join(home, "local"), { recursive: true });
  const script = `echo started >> '${starts}'; exec sleep 600`;
  writeFileSync(join(home, "local/CrabTalk.toml"), `[mcps.slow]\ncommand = "sh"\nargs = ["-c", ${JSON.stringify(script)}]\n`);
  const d = await start({ home });
  const deadline = Date.now() + 10_000;
  while (!existsSync(starts)) {
    if (Date.now() > deadline) throw new Error("the first daemon never started its MCP server");
    await Bun.sleep(20);
  }
  const began = performance.now();
  const second = Bun.spawn([process.execPath, MAIN, "daemon"], { env: { ...process.env, CRABTALK_HOME: home }, stdout: "pipe", stderr: "pipe" });
  const code = await second.exited;
  const took = performance.now() - began;
  expect(code).toBe(1);
  expect(await new Response(second.stderr).text()).toContain("already running");
  // Well under the 25 s it took when the MCP servers were started first (a bun start is ~0.1-1 s, more under load).
  expect(took).toBeLessThan(8000);
  expect(readFileSync(starts, "utf8")).toBe("started\n");
  const client = await d.client();
  await client.ping();
  await client.close();
});

test("a stale socket left by a crashed daemon is replaced", async () => {
  const home = tempHome();
  const crashed = await startDaemon({ home });
  crashed.proc.kill("SIGKILL");
  await crashed.proc.exited;
  expect(existsSync(crashed.socket)).toBe(true); // left behind by the crash
  const d = await start({ home });
  const client = await d.client();
  await client.ping();
  await client.close();
});

test("TCP falls back to an OS-assigned port when the preferred port is taken", async () => {
  // Hold 6688 ourselves if nobody does, so the daemon must fall back.
  let holder: { stop(force?: boolean): void } | undefined;
  try {
    holder = Bun.listen({ hostname: "127.0.0.1", port: 6688, socket: { data() {} } });
  } catch {
    // Already taken by someone else: the condition holds anyway.
  }
  try {
    const d = await start();
    expect(d.port).not.toBe(6688);
    expect(d.port).toBeGreaterThan(0);
    const client = await d.client({ tcp: true });
    await client.ping();
    await client.close();
  } finally {
    holder?.stop(true);
  }
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} shuts down gracefully: exit 0, socket, port and pid files removed`, async () => {
    const home = tempHome();
    const d = await startDaemon({ home });
    const idle = await RawConnection.open({ path: d.socket }); // an open connection must not hold it up
    d.proc.kill(signal);
    const code = await d.proc.exited;
    expect(code).toBe(0);
    expect(existsSync(d.socket)).toBe(false);
    expect(existsSync(join(home, "run/crabtalk.port"))).toBe(false);
    expect(existsSync(join(home, "run/crabtalk.pid"))).toBe(false);
    expect(await idle.waitClosed()).toBe(true);
    const log = readFileSync(join(home, "logs/daemon.log"), "utf8");
    expect(log).toContain("shutting down");
    cleanup(home);
  });
}

test("a broken config.toml stops start with a message naming the problem", async () => {
  const home = tempHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), '[provider.openai]\napi_key = "x"\nmodels = []\n');
  const proc = Bun.spawn([process.execPath, MAIN, "daemon"], {
    env: { ...process.env, CRABTALK_HOME: home },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await proc.exited).not.toBe(0);
  const stderr = await new Response(proc.stderr).text();
  expect(stderr).toContain("provider.openai.models");
  expect(existsSync(join(home, "run/crabtalk.sock"))).toBe(false);
  cleanup(home);
});

// main.ts runs the plain forms without commander; `--tcp daemon` goes through it: same message, same status.
test("every form of `daemon` reports a failed start alike: one line, exit 1", async () => {
  const home = tempHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), '[provider.openai]\napi_key = "x"\nmodels = []\n');
  for (const argv of [["daemon"], ["daemon", "-v"], ["daemon", "--verbose"], ["--tcp", "daemon"]]) {
    const proc = Bun.spawn([process.execPath, MAIN, ...argv], { env: { ...process.env, CRABTALK_HOME: home }, stdout: "pipe", stderr: "pipe" });
    expect(await proc.exited).toBe(1);
    const lines = (await new Response(proc.stderr).text()).trim().split("\n");
    expect(lines.at(-1)).toStartWith("crabtalk: daemon failed to start: ");
    expect(lines.at(-1)).toContain("provider.openai.models");
  }
  cleanup(home);
});

test("only `daemon` with no option or -v/--verbose skips the full command line", () => {
  expect(plainDaemonArgs(["daemon"])).toEqual({ verbose: false });
  expect(plainDaemonArgs(["daemon", "-v"])).toEqual({ verbose: true });
  expect(plainDaemonArgs(["daemon", "--verbose"])).toEqual({ verbose: true });
  for (const argv of [[], ["--tcp", "daemon"], ["daemon", "--help"], ["daemon", "-v", "-v"], ["daemon", "x"], ["start"]]) {
    expect(plainDaemonArgs(argv)).toBeUndefined();
  }
});

test("logs go to logs/daemon.log as structured lines", async () => {
  const d = await start();
  const log = readFileSync(join(d.home, "logs/daemon.log"), "utf8");
  expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO listening home=\S+ socket=\S+ port=\d+ pid=\d+$/m);
});
