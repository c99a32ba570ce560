// StartService through a service manager (docs/packages.md#services): a fake
// `systemctl` first on PATH checks the unit's path and runs what it names.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { fakeServiceManager } from "../support/fake-service-manager.ts";
import { echoComponentBin } from "../support/hub.ts";
import { pidsWith, waitFor } from "../runtime/mcp/support.ts";

const marker = `crabtalk-systemd-svc-${process.pid}`;
const fake = fakeServiceManager();
const xdg = mkdtempSync(join(tmpdir(), "crabtalk-xdg-"));
const unit = join(xdg, "systemd/user/ai.crabtalk.echo.service");
let daemon: TestDaemon;
let client: Client;

beforeAll(async () => {
  const hub = mkdtempSync(join(tmpdir(), "crabtalk-svchub-"));
  mkdirSync(join(hub, "test"));
  writeFileSync(join(hub, "test/echo.toml"), '[package]\ndescription = "echo"\n[commands.echo]\nbin = "crabtalk-echo-test"\n');
  const bin = echoComponentBin(marker);
  daemon = await startDaemon({
    env: { ...fake.env({ XDG_CONFIG_HOME: xdg, CRABTALK_SERVICE_MANAGER: "systemd" }), PATH: `${fake.bin}:${bin}:${process.env.PATH}` },
  });
  client = await daemon.client();
  for await (const _ of client.installPackage({ package: "test/echo", path: hub })) void _;
});
afterAll(async () => {
  await client.close();
  await daemon.stop();
  cleanup(daemon.home);
});

test("StartService writes ai.crabtalk.<name>.service, enables it, and the component it runs announces itself", async () => {
  await client.startService("echo");
  const text = readFileSync(unit, "utf8");
  expect(text).toMatch(/^ExecStart="[^"]*\/crabtalk-echo-test"$/m);
  expect(text).toContain(`WorkingDirectory=${process.env.HOME || homedir()}\n`);
  const verified = Bun.spawnSync(["systemd-analyze", "verify", unit]);
  expect((verified.stdout.toString() + verified.stderr.toString()).trim()).toBe("");
  expect(verified.exitCode).toBe(0);
  expect(text).toContain(`Environment="CRABTALK_HOME=${daemon.home}"`);
  expect(fake.calls()).toContainEqual(["--user", "enable", "--now", "ai.crabtalk.echo.service"]);
  expect(await waitFor(() => existsSync(join(daemon.home, "run/echo.port")), 15000)).toBe(true);
  expect((await daemonError(client.startService("echo"))).code).toBe(400);
});

test("StopService disables and removes the unit, and the port file goes", async () => {
  await client.stopService("echo");
  expect(existsSync(unit)).toBe(false);
  expect(fake.calls()).toContainEqual(["--user", "disable", "--now", "ai.crabtalk.echo.service"]);
  expect(existsSync(join(daemon.home, "run/echo.port"))).toBe(false);
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true);
});
