// Manifest size limits (docs/packages.md "Manifests"): a 60 MB description
// once installed made every ListPackages reply too large to send, for good.
// Now an oversized manifest is refused at install, and one put on disk by
// other means is listed with why it is not loaded, also after a restart,
// and `crabtalk rm` removes it.
import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { runCli } from "../support/cli.ts";
import { cleanup, REPO, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { commitFiles, realHub } from "../support/hub.ts";

const MB60 = 60 * 1024 * 1024;
const manifest = (description: string) => `[package]\ndescription = "${description}"\nkeywords = ["limits"]\n`;

// A hub directory (used as `path`, no git) of the real hub's manifests and some of ours.
const hubDir = mkdtempSync(join(tmpdir(), "crabtalk-limits-hub-"));
cpSync(join(REPO, "test/fixtures/hub"), hubDir, { recursive: true });
mkdirSync(join(hubDir, "test"));
writeFileSync(join(hubDir, "test/small.toml"), manifest("A small package"));
writeFileSync(join(hubDir, "test/huge.toml"), manifest("x".repeat(MB60)));
writeFileSync(join(hubDir, "test/wordy.toml"), manifest("y".repeat(10_000)));

const home = tempHome();
let daemon: TestDaemon;
let client: Client;

async function start(): Promise<void> {
  daemon = await startDaemon({ home });
  client = await daemon.client();
}
async function stop(): Promise<void> {
  await client.close();
  await daemon.stop();
}
afterAll(async () => {
  if (daemon?.proc.exitCode === null) await stop();
  cleanup(home);
  cleanup(hubDir);
});

async function install(pkg: string): Promise<void> {
  for await (const _ of client.installPackage({ package: pkg, path: hubDir })) void _;
}

test("a 60 MB manifest and a 10 KB description are refused at install; what is installed stays listed", async () => {
  await start();
  await install("test/small");
  const huge = await daemonError(install("test/huge"));
  expect(huge.code).toBe(500);
  expect(huge.message).toMatch(/^test\/huge\.toml: the manifest is \d+ bytes, over the 1048576-byte \(1 MiB\) limit$/);
  const wordy = await daemonError(install("test/wordy"));
  expect(wordy.message).toBe("test/wordy.toml: package.description is 10000 bytes, over the 4096-byte limit");
  expect(existsSync(join(home, "packages/test/huge.toml"))).toBe(false);
  expect(existsSync(join(home, "packages/test/wordy.toml"))).toBe(false);
  expect(await client.listPackages()).toEqual([expect.objectContaining({ name: "test/small", description: "A small package" })]);
  const cli = await runCli(["packages"], { home });
  expect(cli.code).toBe(0);
  expect(cli.stdout).toContain("test/small");
});

test("oversized manifests planted on disk are listed as not loaded, also after a restart, and rm removes them", async () => {
  writeFileSync(join(home, "packages/test/planted.toml"), manifest("z".repeat(MB60)));
  mkdirSync(join(home, "packages/other"));
  writeFileSync(join(home, "packages/other/wordy.toml"), manifest("w".repeat(10_000)));
  const expected = [
    { name: "other/wordy", description: "not loaded: package.description is 10000 bytes, over the 4096-byte limit" },
    { name: "test/planted", description: expect.stringMatching(/^not loaded: the manifest is \d+ bytes, over the 1048576-byte \(1 MiB\) limit$/) },
    { name: "test/small", description: "A small package" },
  ];
  expect((await client.listPackages()).map(({ name, description }) => ({ name, description }))).toEqual(expected);
  await stop();
  await start();
  expect((await client.listPackages()).map(({ name, description }) => ({ name, description }))).toEqual(expected);
  const listed = await runCli(["packages"], { home });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("test/planted");
  expect(listed.stdout).toContain("not loaded: the manifest is");
  for (const id of ["test/planted", "other/wordy"]) {
    const removed = await runCli(["rm", id], { home });
    expect(removed.stdout).toContain("removing the manifest only");
    expect(removed.code).toBe(0);
  }
  expect(existsSync(join(home, "packages/test/planted.toml"))).toBe(false);
  expect((await client.listPackages()).map((p) => p.name)).toEqual(["test/small"]);
  await stop();
});

test("SearchHub skips an oversized hub manifest and lists the real ones", async () => {
  const hub = realHub();
  commitFiles(hub, { "test/big.toml": manifest("b".repeat(2 * 1024 * 1024)), "test/small.toml": manifest("A small package") });
  const searching = await startDaemon({ env: { CRABTALK_HUB_URL: hub } });
  const c = await searching.client();
  try {
    const names = (await c.searchHub("")).map((p) => p.name);
    expect(names).toContain("test/small");
    expect(names).toContain("microsoft/playwright");
    expect(names).toHaveLength(11);
    expect(names).not.toContain("test/big");
  } finally {
    await c.close();
    await searching.stop();
    cleanup(searching.home);
    cleanup(hub);
  }
});
