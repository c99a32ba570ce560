// The public hub's own manifests (test/fixtures/hub, copied as published):
// every one parses, SearchHub over a hub made of them finds each by one of
// its keywords, and installing one whose command this machine lacks fails
// cleanly (all or nothing).
import { beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readPackageManifest } from "../../src/daemon/packages/manifest.ts";
import type { Client } from "../../src/protocol/client.ts";
import { REPO, cleanup, startDaemon } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { realHub } from "../support/hub.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const FIXTURES = join(REPO, "test/fixtures/hub");
const ids = readdirSync(FIXTURES).flatMap((scope) => readdirSync(join(FIXTURES, scope)).map((f) => `${scope}/${f.replace(/\.toml$/, "")}`));

const fx = useLlmDaemon("openai", { env: { CRABTALK_HUB_URL: realHub(), PATH: "/usr/bin:/bin" } });
let client: Client;
beforeAll(() => {
  client = fx.client;
});

test("every real hub manifest parses", () => {
  expect(ids.length).toBe(10);
  for (const id of ids) {
    const m = readPackageManifest(join(FIXTURES, `${id}.toml`));
    expect(m.package.description).not.toBe("");
    expect(m.package.keywords.length).toBeGreaterThan(0);
  }
});

test("SearchHub lists them all and finds each by one of its keywords", async () => {
  expect((await client.searchHub("")).map((p) => p.name)).toEqual([...ids].sort());
  for (const id of ids) {
    const { keywords } = readPackageManifest(join(FIXTURES, `${id}.toml`)).package;
    const keyword = keywords.at(-1)!;
    expect((await client.searchHub(keyword)).map((p) => p.name)).toContain(id);
  }
  const figma = (await client.searchHub("figma"))[0];
  expect(figma).toMatchObject({ name: "figma/figma", mcpCount: 1, installed: false, repository: "https://github.com/figma/mcp-server-guide" });
});

test("a crate command with no cargo and no binary fails the install with a clear error, leaving nothing", async () => {
  const err = await daemonError(
    (async () => {
      for await (const _ of client.installPackage({ package: "crabtalk/search" })) void _;
    })(),
  );
  expect(err.code).toBe(500);
  expect(err.message).toContain("cargo is not installed and 'crabtalk-search' is not on PATH or in ~/.cargo/bin");
  expect(existsSync(join(fx.env.daemon.home, "packages/crabtalk"))).toBe(false);
  expect(await client.listPackages()).toEqual([]);
});

test("without git, SearchHub says git is missing and the daemon goes on", async () => {
  const daemon = await startDaemon({ env: { PATH: "/nonexistent", CRABTALK_HUB_URL: realHub() } });
  const c = await daemon.client();
  try {
    const err = await daemonError(c.searchHub(""));
    expect(err).toMatchObject({ code: 500 });
    expect(err.message).toContain("git is not installed");
    await c.ping();
  } finally {
    await c.close();
    await daemon.stop();
    cleanup(daemon.home);
  }
});
