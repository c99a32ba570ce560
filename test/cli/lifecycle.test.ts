// The CLI as a client: --version, --help, ping, stats, config, reload, --tcp,
// and the hint when no daemon answers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";

let daemon: TestDaemon;
const cli = (args: string[], stdin?: string, env?: Record<string, string>) => runCli(args, { home: daemon.home, stdin, env });

beforeAll(async () => {
  daemon = await startDaemon({
    config: '[provider.openai]\napi_key = "sk-cli-secret"\nmodels = ["gpt-4o", "gpt-4o-mini"]\n\n[system.crab]\nmodel = "gpt-4o"\n',
  });
});

afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
});

test("--version prints the package version", async () => {
  const r = await cli(["--version"]);
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toMatch(new RegExp(`^crabtalk ${pkg.version.replace(/\./g, "\\.")} \\(\\S+, (linux|darwin|windows)-(x64|arm64)\\)$`));
});

test("--help documents every command", async () => {
  const r = await cli(["--help"]);
  expect(r.code).toBe(0);
  for (const cmd of ["daemon", "start", "stop", "ping", "stats", "config", "reload", "--tcp", "CRABTALK_HOME"]) {
    expect(r.stdout).toContain(cmd);
  }
  const sub = await cli(["config", "--help"]);
  for (const cmd of ["get", "set", "edit"]) expect(sub.stdout).toContain(cmd);
});

test("ping and stats answer over the socket and over --tcp", async () => {
  for (const extra of [[], ["--tcp"]]) {
    const ping = await cli([...extra, "ping"]);
    expect(ping.code).toBe(0);
    expect(ping.stdout).toMatch(/^pong in [\d.]+ ms$/m);
    const stats = await cli([...extra, "stats", "--json"]);
    expect(stats.code).toBe(0);
    const parsed = JSON.parse(stats.stdout);
    expect(parsed.active_model).toBe("gpt-4o");
    expect(parsed.registered_agents).toBe(1);
    // The daemon's own memory, as /proc tells it: some MiB, private a part of resident.
    expect(parsed.resident_bytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(parsed.private_bytes).toBeGreaterThan(0);
    expect(parsed.private_bytes).toBeLessThanOrEqual(parsed.resident_bytes);
  }
  const human = await cli(["stats"]);
  expect(human.stdout).toContain("active model:      gpt-4o");
  expect(human.stdout).toMatch(/^memory: +[\d.]+ MiB resident, [\d.]+ MiB private$/m);
});

test("config get prints redacted JSON, whole or one key", async () => {
  const all = await cli(["config", "get"]);
  expect(all.code).toBe(0);
  expect(JSON.parse(all.stdout).provider.openai.api_key).toBe("<redacted>");
  expect(all.stdout).not.toContain("sk-cli-secret");
  const one = await cli(["config", "get", "system.crab.model"]);
  expect(one.stdout.trim()).toBe("gpt-4o");
  const missing = await cli(["config", "get", "no.such.key"]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("no config key 'no.such.key'");
});

test("config set - reads JSON from stdin; bad input exits non-zero with the daemon's message", async () => {
  const current = JSON.parse((await cli(["config", "get"])).stdout);
  current.system.crab.model = "gpt-4o-mini";
  const ok = await cli(["config", "set", "-"], JSON.stringify(current));
  expect(ok.code).toBe(0);
  expect(readFileSync(join(daemon.home, "config.toml"), "utf8")).toContain("sk-cli-secret");
  expect((await cli(["config", "get", "system.crab.model"])).stdout.trim()).toBe("gpt-4o-mini");

  const bad = await cli(["config", "set", "-"], "{oops");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/^crabtalk: invalid config JSON: [^\n]*\n$/);
});

test("config edit runs $EDITOR on the JSON and saves the result", async () => {
  const editor = join(daemon.home, "fake-editor.sh");
  writeFileSync(editor, `#!/bin/sh\nsed -i 's/"max_iterations": 16/"max_iterations": 7/' "$1"\n`);
  chmodSync(editor, 0o755);
  const r = await cli(["config", "edit"], undefined, { EDITOR: editor, VISUAL: "" });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("config saved");
  expect(readFileSync(join(daemon.home, "config.toml"), "utf8")).toContain("max_iterations = 7");
});

test("reload answers and reports failure of a broken file", async () => {
  expect((await cli(["reload"])).stdout.trim()).toBe("reloaded");
  const path = join(daemon.home, "config.toml");
  const good = readFileSync(path, "utf8");
  writeFileSync(path, "broken = [");
  const r = await cli(["reload"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("reload failed");
  writeFileSync(path, good);
});

test("with no daemon, client commands fail with a one-line hint", async () => {
  const home = tempHome();
  for (const args of [["ping"], ["--tcp", "stats"], ["config", "get"]]) {
    const r = await runCli(args, { home });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("is the daemon running? try crabtalk start");
  }
  cleanup(home);
});

test("start runs the daemon in the background and stop ends it", async () => {
  const home = tempHome();
  try {
    const started = await runCli(["start"], { home });
    expect(started.code).toBe(0);
    expect(started.stdout).toContain("crabtalk daemon started");
    expect((await runCli(["ping"], { home })).code).toBe(0);
    expect((await runCli(["start"], { home })).stdout).toContain("already running");
    const stopped = await runCli(["stop"], { home });
    expect(stopped.code).toBe(0);
    expect(existsSync(join(home, "run/crabtalk.sock"))).toBe(false);
    expect((await runCli(["ping"], { home })).code).toBe(2);
  } finally {
    await runCli(["stop"], { home });
    cleanup(home);
  }
});

test("stop with a stale pid file signals nobody and removes the file", async () => {
  const home = tempHome();
  try {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(home, "run"), { recursive: true });
    // A live process that is not a daemon of this home: it must survive.
    const bystander = Bun.spawn(["sleep", "30"]);
    writeFileSync(join(home, "run/crabtalk.pid"), String(bystander.pid));
    const r = await runCli(["stop"], { home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("stale pid file");
    expect(existsSync(join(home, "run/crabtalk.pid"))).toBe(false);
    expect(bystander.exitCode).toBeNull();
    bystander.kill();
  } finally {
    cleanup(home);
  }
});
