// crabtalk uninstall with the real compiled binary: service, binary, PATH
// line and (with --purge) the home go; without confirmation nothing does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { compiledBinary } from "../support/binary.ts";
import { fakeServiceManager } from "../support/fake-service-manager.ts";

const root = mkdtempSync(join(tmpdir(), "crabtalk-uninstall-"));
const userHome = join(root, "user");
const home = join(userHome, ".crabtalk");
const binDir = join(userHome, ".crabtalk-bin");
const binary = join(binDir, "crabtalk");
const unit = join(userHome, ".config/systemd/user/ai.crabtalk.crabtalk.service");
const sm = fakeServiceManager();
const env = sm.env({ HOME: userHome, XDG_CONFIG_HOME: join(userHome, ".config"), CRABTALK_SERVICE_MANAGER: "systemd" });
const cli = (args: string[]) => runCli(args, { home, env, command: [binary] });
let daemonPid = 0;

beforeAll(async () => {
  mkdirSync(binDir, { recursive: true });
  copyFileSync(await compiledBinary(), binary);
  Bun.spawnSync(["chmod", "755", binary]);
  // As `install.sh --add-to-path` appends it: a blank line, then the PATH line.
  writeFileSync(join(userHome, ".bashrc"), `alias ll='ls -l'\n\nexport PATH="${binDir}:$PATH" # added by the crabtalk installer\n`);
}, 120_000);
afterAll(async () => {
  if (existsSync(binary)) await cli(["stop"]);
  cleanup(root);
});

test("uninstall --purge asks first and, in a pipe without --yes, changes nothing", async () => {
  expect((await cli(["start"])).code).toBe(0);
  expect(readFileSync(unit, "utf8")).toContain(`ExecStart="${binary}" "daemon"`);
  const r = await cli(["uninstall", "--purge"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(`crabtalk: refusing to delete ${home} without confirmation: add --yes\n`);
  expect(existsSync(binary)).toBe(true);
  expect(existsSync(unit)).toBe(true);
  expect((await cli(["ping"])).code).toBe(0);
  daemonPid = Number(readFileSync(join(home, "run/crabtalk.pid"), "utf8"));
}, 30_000);

test("uninstall --purge --yes stops the daemon and removes the unit, the binary, the PATH line and the home", async () => {
  const r = await cli(["uninstall", "--purge", "--yes"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`removed the systemd user unit ${unit}`);
  expect(r.stdout).toContain(`removed ${binary}`);
  expect(r.stdout).toContain(`deleted ${home}`);
  expect(sm.calls()).toContainEqual(["--user", "disable", "--now", "ai.crabtalk.crabtalk.service"]);
  expect(existsSync(unit)).toBe(false);
  expect(existsSync(binary)).toBe(false);
  expect(existsSync(home)).toBe(false);
  expect(readFileSync(join(userHome, ".bashrc"), "utf8")).toBe("alias ll='ls -l'\n");
  // The daemon the service ran has exited.
  expect(daemonPid).toBeGreaterThan(0);
  expect(() => process.kill(daemonPid, 0)).toThrow();
}, 30_000);
