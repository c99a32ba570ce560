// Where no service manager is usable (CI, containers): start runs a
// background daemon, and status, send, logs, stop and restart work on it.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, tempHome } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import pkg from "../../package.json" with { type: "json" };

const fake = await startFakeOpenAI();
const home = tempHome();
writeFileSync(
  join(home, "config.toml"),
  `[provider.fake]\napi_key = "sk-background"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`,
);
const cli = (args: string[], env?: Record<string, string>) => runCli(args, { home, env });
const pidOf = () => Number(readFileSync(join(home, "run/crabtalk.pid"), "utf8"));

afterAll(async () => {
  await cli(["stop"]);
  await fake.stop();
  cleanup(home);
});

test("start, status, send, logs, stop, status again", async () => {
  const started = await cli(["start"]);
  expect(started.code).toBe(0);
  expect(started.stdout).toContain("started in the background; it will not restart after a crash or at login");

  const status = await cli(["status"]);
  expect(status.code).toBe(0);
  expect(status.stdout).toContain("crabtalk daemon is running");
  expect(status.stdout).toContain(`pid:           ${pidOf()}\n`);
  expect(status.stdout).toContain(`version:       ${pkg.version}\n`);
  expect(status.stdout).toMatch(/uptime: +\d+s\n/);
  expect(status.stdout).toMatch(/memory: +[\d.]+ MiB resident, [\d.]+ MiB private\n/);
  expect(status.stdout).toContain(`home:          ${home}\n`);
  expect(status.stdout).toContain("active model:  fake-model\n");
  expect(status.stdout).toContain("run by:        background process\n");
  const json = JSON.parse((await cli(["status", "--json"])).stdout);
  expect(json).toMatchObject({ running: true, pid: pidOf(), version: pkg.version, home, active_model: "fake-model" });
  expect(json.tcp_port).toBeGreaterThan(0);
  expect(json.resident_bytes).toBeGreaterThan(json.private_bytes);

  fake.script({ text: "hello from the fake" });
  const sent = await cli(["send", "hi"]);
  expect(sent.code).toBe(0);
  expect(sent.stdout).toContain("hello from the fake");

  // Each run leaves one line; five runs, then the last five lines are theirs.
  for (let i = 0; i < 4; i++) expect((await cli(["send", `more ${i}`])).code).toBe(0);
  const logs = await cli(["logs", "-n", "5"]);
  expect(logs.code).toBe(0);
  const lines = logs.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(5);
  for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO run finished agent=crab /);
  expect(logs.stdout).not.toContain("sk-background");
  const last = await cli(["logs", "-n", "1"]);
  expect(last.stdout).toBe(lines.at(-1) + "\n");

  const stopped = await cli(["stop"]);
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toContain("crabtalk daemon stopped");
  const after = await cli(["status"]);
  expect(after.code).toBe(3);
  expect(after.stdout).toContain("not running");
  expect(JSON.parse((await cli(["status", "--json"])).stdout).running).toBe(false);
}, 30_000);

test("a start after kill -9 of the daemon cleans up and starts", async () => {
  expect((await cli(["start"])).code).toBe(0);
  const pid = pidOf();
  process.kill(pid, "SIGKILL");
  // Dead means every thread gone: a zombie leader's other threads may still hold its files (the socket) for a moment.
  const alive = () => existsSync(`/proc/${pid}`) && (!readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z") || readdirSync(`/proc/${pid}/task`).length > 1);
  while (alive()) await Bun.sleep(10);
  expect(existsSync(join(home, "run/crabtalk.sock"))).toBe(true);
  expect((await cli(["ping"])).code).toBe(2);

  const again = await cli(["start"]);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain("cleaned up the pid file and socket of a daemon that did not stop cleanly");
  expect(pidOf()).not.toBe(pid);
  expect((await cli(["ping"])).code).toBe(0);
}, 30_000);

test("restart gives a new daemon process; a CLI newer than the daemon warns once, naming restart", async () => {
  if ((await cli(["ping"])).code !== 0) expect((await cli(["start"])).code).toBe(0);
  const before = pidOf();
  const restarted = await cli(["restart"]);
  expect(restarted.code).toBe(0);
  expect(restarted.stdout).toContain("crabtalk daemon started");
  expect(pidOf()).not.toBe(before);

  // What a daemon of an older release wrote at its start.
  writeFileSync(join(home, "run/crabtalk.version"), "0.0.1");
  const ping = await cli(["ping"]);
  expect(ping.code).toBe(0);
  expect(ping.stderr).toBe(`crabtalk: warning: the daemon runs crabtalk 0.0.1 but this is ${pkg.version}: run 'crabtalk restart' to run the new version\n`);
  const same = await cli(["restart"]);
  expect(same.code).toBe(0);
  expect((await cli(["ping"])).stderr).toBe("");
}, 30_000);

test("a taken TCP port is no reason not to start: the daemon takes another and start says so", async () => {
  await cli(["stop"]);
  let holder: { stop(closeActive?: boolean): void } | undefined;
  try {
    holder = Bun.listen({ hostname: "127.0.0.1", port: 6688, socket: { data() {} } });
  } catch {
    // Something else holds 6688 already: just as good.
  }
  try {
    const started = await cli(["start"]);
    expect(started.code).toBe(0);
    const port = Number(readFileSync(join(home, "run/crabtalk.port"), "utf8"));
    expect(port).not.toBe(6688);
    expect(started.stdout).toContain(`TCP port 6688 is taken by another program; the daemon listens on 127.0.0.1:${port} instead`);
    expect((await cli(["--tcp", "ping"])).code).toBe(0);
  } finally {
    holder?.stop(true);
  }
}, 30_000);

test("a daemon that dies at start is reported at once with its error; daemon.out holds no copy of the log", async () => {
  await cli(["stop"]);
  const other = tempHome();
  try {
    // run/ as a plain file: the daemon cannot create its socket directory.
    writeFileSync(join(other, "run"), "not a directory");
    const r = await runCli(["start"], { home: other });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("crabtalk: the daemon exited at start:");
    expect(r.stderr).toContain("daemon failed to start");
  } finally {
    cleanup(other);
  }
  expect((await cli(["start"])).code).toBe(0);
  expect(readFileSync(join(home, "logs/daemon.out"), "utf8")).not.toContain("INFO listening");
  expect(readFileSync(join(home, "logs/daemon.log"), "utf8")).toContain("INFO listening");
}, 30_000);
