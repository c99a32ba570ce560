// crabtalk upgrade with the real compiled binary against a local release
// server (as install.sh's tests): a bad checksum changes nothing, a good
// release is swapped in and the running daemon restarted, and the same
// release again is "already up to date".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { compiledBinary } from "../support/binary.ts";
import { releaseServer, sha256 } from "../support/release-server.ts";
import { VERSION } from "../../src/version.ts";

const root = mkdtempSync(join(tmpdir(), "crabtalk-upgrade-"));
const home = join(root, "home");
const binDir = join(root, "bin");
const binary = join(binDir, "crabtalk");
// A copy the "new release" runs: other tests may rebuild dist/crabtalk meanwhile.
const real = join(root, "real-crabtalk");
const server = releaseServer(join(root, "www"));
const asset = `crabtalk-linux-${process.arch}`;
const env = { CRABTALK_RELEASES_URL: server.url };
const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { home, env: { ...env, ...extra }, command: [binary] });
const pid = () => Number(readFileSync(join(home, "run/crabtalk.pid"), "utf8"));

/**
 * Release 9.9.9: says so to --version, and is the real crabtalk for everything
 * else (so the restarted daemon runs). A CLI run through it has `real` as its
 * own executable, so a later upgrade may put this script at `real` itself:
 * the guard makes that exit instead of exec'ing itself for ever (a spinning
 * orphan that ate a core for the rest of the test run).
 */
const NEW_RELEASE = `#!/bin/sh
if [ "$1" = --version ]; then echo "crabtalk 9.9.9 (fake, linux-${process.arch})"; exit 0; fi
if [ -n "$CRABTALK_FAKE_RELEASE" ]; then echo "fake release: ${real} is this script" >&2; exit 3; fi
CRABTALK_FAKE_RELEASE=1 exec '${real}' "$@"
`;

beforeAll(async () => {
  mkdirSync(binDir, { recursive: true });
  copyFileSync(await compiledBinary(), binary);
  copyFileSync(binary, real);
  Bun.spawnSync(["chmod", "755", binary, real]);
  server.publish("v9.9.9", { [asset]: NEW_RELEASE });
  server.publish("latest", { [asset]: readFileSync(real) });
  server.publish("v6.6.6", { [asset]: NEW_RELEASE }, { [asset]: sha256("something else") });
}, 120_000);
afterAll(async () => {
  await cli(["stop"]);
  server.stop();
  cleanup(root);
});

test("a bad checksum leaves the binary and the running daemon untouched", async () => {
  expect((await cli(["start"])).code).toBe(0);
  const before = pid();
  const original = sha256(readFileSync(binary));
  const r = await cli(["upgrade", "--version", "6.6.6"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toStartWith(`crabtalk: checksum mismatch for ${asset}`);
  expect(r.stderr).toContain("nothing was changed");
  expect(server.requests.slice(-2)).toEqual(["/download/v6.6.6/SHA256SUMS", `/download/v6.6.6/${asset}`]);
  expect(sha256(readFileSync(binary))).toBe(original);
  expect(readdirSync(binDir)).toEqual(["crabtalk"]); // no temp file left
  expect(pid()).toBe(before);
  expect((await cli(["ping"])).code).toBe(0);
}, 60_000);

test("a good release is verified, swapped in, and the running daemon restarted on it; says from which version to which", async () => {
  const before = pid();
  const r = await cli(["upgrade", "--version", "v9.9.9"], { CRABTALK_DOWNLOAD_URL: `${server.url}/download/v9.9.9/` });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Upgraded ${binary}: crabtalk ${VERSION} (`);
  expect(r.stdout).toContain(` -> crabtalk 9.9.9 (fake, linux-${process.arch})`);
  expect(r.stdout).toContain("crabtalk daemon started");
  expect(readFileSync(binary, "utf8")).toBe(NEW_RELEASE);
  expect(readdirSync(binDir)).toEqual(["crabtalk"]);
  expect(pid()).not.toBe(before);
  expect((await cli(["ping"])).code).toBe(0);
  expect((await cli(["--version"])).stdout.trim()).toBe(`crabtalk 9.9.9 (fake, linux-${process.arch})`);
}, 60_000);

test("the latest release when it is the installed one: already up to date, nothing downloaded or restarted", async () => {
  const before = pid();
  const installed = join(root, "bin2/crabtalk");
  mkdirSync(join(root, "bin2"));
  copyFileSync(real, installed);
  Bun.spawnSync(["chmod", "755", installed]);
  const r = await runCli(["upgrade"], { home, env, command: [installed] });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("crabtalk is already up to date");
  expect(r.stdout).not.toContain("Upgraded");
  expect(server.requests.at(-1)).toBe("/latest/download/SHA256SUMS");
  expect(pid()).toBe(before);
}, 60_000);

test("bad input is refused and changes nothing", async () => {
  const r = await cli(["upgrade", "--version", "1.0; rm -rf /"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("is not a version");
  const missing = await cli(["upgrade", "--version", "7.7.7"]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("HTTP 404");
  expect(missing.stderr).toContain("release 7.7.7");
  expect(readFileSync(binary, "utf8")).toBe(NEW_RELEASE);
}, 60_000);
