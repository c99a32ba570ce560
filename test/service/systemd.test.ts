// `crabtalk start` with systemd: a fake systemctl first on PATH records its
// calls and starts ExecStart with only the unit's environment, as systemd would.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, cleanup, tempHome } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { fakeServiceManager } from "../support/fake-service-manager.ts";

/** systemd's own validator on a unit file (Debian package systemd; .ci/run installs it). */
function systemdVerify(path: string): { code: number; output: string } {
  const r = Bun.spawnSync(["systemd-analyze", "verify", path]);
  return { code: r.exitCode, output: (r.stdout.toString() + r.stderr.toString()).trim() };
}

const UNIT = "ai.crabtalk.crabtalk.service";
const homes: string[] = [];
afterAll(() => homes.forEach(cleanup));

function setup() {
  const home = tempHome();
  const xdg = mkdtempSync(join(tmpdir(), "crabtalk-xdg-"));
  homes.push(home, xdg);
  const sm = fakeServiceManager();
  // An empty CRABTALK_SERVICE_MANAGER means "detect": the fake systemctl answers.
  const env = sm.env({ XDG_CONFIG_HOME: xdg, CRABTALK_SERVICE_MANAGER: "" });
  const cli = (args: string[]) => runCli(args, { home, env });
  return { home, xdg, sm, env, cli, unitPath: join(xdg, "systemd/user", UNIT) };
}

test("start writes the unit, reloads and enables it, and waits until the daemon answers; stop disables it", async () => {
  const { home, sm, env, cli, unitPath } = setup();
  try {
    const started = await cli(["start"]);
    expect(started.stderr).toBe("");
    expect(started.code).toBe(0);
    expect(started.stdout).toContain("crabtalk daemon started (pid ");
    expect(started.stdout).toContain(`runs as a systemd user unit: ${unitPath}`);

    const unit = readFileSync(unitPath, "utf8");
    expect(unit).toContain(`ExecStart="${process.execPath}" "${MAIN}" "daemon"\n`);
    // The user's home, never the crabtalk home (the tool sandbox hides it), bare:
    // systemd takes WorkingDirectory= whole, and a quoted path is "not absolute" to it.
    expect(unit).toContain(`WorkingDirectory=${process.env.HOME || homedir()}\n`);
    expect(unit).toContain(`Environment="CRABTALK_HOME=${home}"\n`);
    expect(unit).toContain(`Environment="PATH=${env.PATH}"\n`);
    expect(unit).toContain("Restart=on-failure\nRestartSec=3\n");
    expect(unit).toContain("[Install]\nWantedBy=default.target\n");
    expect(unit).not.toContain("MemoryMax");
    expect(systemdVerify(unitPath)).toEqual({ code: 0, output: "" });

    expect(sm.calls()).toContainEqual(["--user", "daemon-reload"]);
    expect(sm.calls()).toContainEqual(["--user", "enable", "--now", UNIT]);
    // The daemon the fake started from ExecStart, with only the unit's environment, answers.
    expect((await cli(["ping"])).code).toBe(0);
    const status = await cli(["status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`run by:        systemd user unit ${unitPath}`);

    const again = await cli(["start"]);
    expect(again.stdout).toContain("already running");

    const stopped = await cli(["stop"]);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("disabled until 'crabtalk start'");
    expect(sm.calls()).toContainEqual(["--user", "disable", "--now", UNIT]);
    expect((await cli(["ping"])).code).toBe(2);
    expect((await cli(["status"])).code).toBe(3);
  } finally {
    await cli(["stop"]);
  }
}, 30_000);

test("a home whose path has a space and a % still gives a unit systemd accepts, and the daemon runs there", async () => {
  const { sm, xdg, unitPath } = setup();
  const parent = mkdtempSync(join(tmpdir(), "crabtalk-odd-"));
  homes.push(parent);
  const home = join(parent, "my crab%home");
  // The unit's working directory is the user's home: give that one a space and a % too.
  const userHome = join(parent, "my user%home");
  mkdirSync(userHome);
  const cli = (args: string[]) => runCli(args, { home, env: sm.env({ XDG_CONFIG_HOME: xdg, CRABTALK_SERVICE_MANAGER: "", HOME: userHome }) });
  try {
    const started = await cli(["start"]);
    expect(started.stderr).toBe("");
    expect(started.code).toBe(0);
    const unit = readFileSync(unitPath, "utf8");
    expect(unit).toContain(`Environment="CRABTALK_HOME=${home.replace(/%/g, "%%")}"\n`);
    expect(unit).toContain(`WorkingDirectory=${userHome.replace(/%/g, "%%")}\n`);
    expect(systemdVerify(unitPath)).toEqual({ code: 0, output: "" });
    expect((await cli(["ping"])).code).toBe(0);
  } finally {
    await cli(["stop"]);
  }
}, 30_000);

test("the fake systemctl refuses a unit systemd-analyze refuses, as real systemd does", async () => {
  const { xdg, sm, home } = setup();
  const dir = join(xdg, "systemd/user");
  mkdirSync(dir, { recursive: true });
  // The unit an earlier crabtalk wrote: a quoted WorkingDirectory= is fatal to systemd.
  writeFileSync(
    join(dir, UNIT),
    `[Service]\nExecStart="${process.execPath}" "${MAIN}" "daemon"\nWorkingDirectory="${home}"\n[Install]\nWantedBy=default.target\n`,
  );
  expect(systemdVerify(join(dir, UNIT)).output).toContain("WorkingDirectory= path is not absolute");
  const r = Bun.spawnSync([join(sm.bin, "systemctl"), "--user", "enable", "--now", UNIT], { env: sm.env({ XDG_CONFIG_HOME: xdg }) });
  expect(r.exitCode).toBe(1);
  expect(r.stderr.toString()).toContain("is refused by systemd-analyze verify");
  expect(r.stderr.toString()).toContain("WorkingDirectory= path is not absolute");
});

test("[system.service] memory limits are rendered into the unit; a bad value stops start before anything is installed", async () => {
  const { home, sm, cli, unitPath } = setup();
  try {
    writeFileSync(join(home, "config.toml"), '[system.service]\nmemory_max = "1G"\nmemory_high = "80%"\n');
    expect((await cli(["start"])).code).toBe(0);
    const unit = readFileSync(unitPath, "utf8");
    expect(unit).toContain("MemoryHigh=80%\n");
    expect(unit).toContain("MemoryMax=1G\n");
    expect((await cli(["stop"])).code).toBe(0);

    writeFileSync(join(home, "config.toml"), '[system.service]\nmemory_max = "lots"\n');
    const before = sm.calls().length;
    const bad = await cli(["start"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("system.service.memory_max");
    expect(sm.calls().length).toBe(before);
  } finally {
    await cli(["stop"]);
  }
}, 30_000);

test("a systemctl without a user bus (containers, CI) means a background daemon, said in one line", async () => {
  const home = tempHome();
  homes.push(home);
  const sm = fakeServiceManager({ systemd: "no-bus" });
  const cli = (args: string[]) => runCli(args, { home, env: sm.env({ CRABTALK_SERVICE_MANAGER: "" }) });
  try {
    const started = await cli(["start"]);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(
      "no service manager found (systemd has no user session here): started in the background; it will not restart after a crash or at login",
    );
    // It only asked whether a user bus exists; nothing was installed.
    expect(sm.calls().length).toBeGreaterThan(0);
    for (const call of sm.calls()) expect(call).toEqual(["--user", "show-environment"]);
    expect((await cli(["status"])).stdout).toContain("run by:        background process");
  } finally {
    expect((await cli(["stop"])).code).toBe(0);
  }
  expect(existsSync(join(home, "run/crabtalk.pid"))).toBe(false);
}, 30_000);

test("an unknown CRABTALK_SERVICE_MANAGER is refused with the values it takes", async () => {
  const home = tempHome();
  homes.push(home);
  const r = await runCli(["start"], { home, env: { CRABTALK_SERVICE_MANAGER: "upstart" } });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("CRABTALK_SERVICE_MANAGER=upstart: use one of systemd, launchd, schtasks, none");
  expect(existsSync(join(home, "run/crabtalk.sock"))).toBe(false);
});
