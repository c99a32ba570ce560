// GetConfig / SetConfig / Reload / GetStats against a real daemon (docs/protocol.md#the-daemon, docs/config.md#reload).
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonError, type Client } from "../../src/protocol/client.ts";
import { ResourceKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";

const SECRET = "sk-stored-secret-0001";
const INITIAL = `# my comment
[provider.openai]
api_key = "${SECRET}"
models = ["gpt-4o", "gpt-4o-mini"]

[system.crab]
model = "gpt-4o"
`;

let daemon: TestDaemon;
let client: Client;
const configPath = () => join(daemon.home, "config.toml");

beforeAll(async () => {
  daemon = await startDaemon({ config: INITIAL });
  client = await daemon.client();
});

afterAll(async () => {
  await client.close();
  await daemon.stop();
  cleanup(daemon.home);
});

beforeEach(async () => {
  writeFileSync(configPath(), INITIAL);
  await client.reload();
});

async function expectError(p: Promise<unknown>, code: number, text: string): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DaemonError);
  expect((err as DaemonError).code).toBe(code);
  expect((err as DaemonError).message).toContain(text);
}

test("SetConfig with redacted secrets keeps the stored secret and reloads", async () => {
  const current = JSON.parse(await client.getConfig());
  expect(current.provider.openai.api_key).toBe("<redacted>");
  current.system.crab.model = "gpt-4o-mini";
  await client.setConfig(JSON.stringify(current));
  const text = readFileSync(configPath(), "utf8");
  expect(text).toContain(SECRET);
  expect(text).toContain("gpt-4o-mini");
  expect((await client.getStats()).activeModel).toBe("gpt-4o-mini");
  expect(JSON.parse(await client.getConfig()).system.crab.model).toBe("gpt-4o-mini");
});

test("SetConfig keeps ${VAR} references unexpanded in the file", async () => {
  const current = JSON.parse(await client.getConfig());
  current.provider.other = { api_key: "${OTHER_KEY}", base_url: "http://127.0.0.1:9/v1", models: ["m1"] };
  await client.setConfig(JSON.stringify(current));
  expect(readFileSync(configPath(), "utf8")).toContain('"${OTHER_KEY}"');
  expect(JSON.parse(await client.getConfig()).provider.other.api_key).toBe("${OTHER_KEY}");
});

test("SetConfig rejects malformed JSON with 400 and changes nothing", async () => {
  await expectError(client.setConfig("{not json"), 400, "invalid config JSON");
  await expectError(client.setConfig("[1,2]"), 400, "expected an object");
  expect(readFileSync(configPath(), "utf8")).toBe(INITIAL);
});

test("SetConfig rejects an invalid config with 400 naming the problem and changes nothing", async () => {
  const current = JSON.parse(await client.getConfig());
  current.provider.openai.models = [];
  await expectError(client.setConfig(JSON.stringify(current)), 400, "provider.openai.models");
  const dup = JSON.parse(await client.getConfig());
  dup.provider.second = { api_key: "k", models: ["gpt-4o"] };
  await expectError(client.setConfig(JSON.stringify(dup)), 400, "duplicate model name 'gpt-4o'");
  expect(readFileSync(configPath(), "utf8")).toBe(INITIAL);
  expect((await client.getStats()).activeModel).toBe("gpt-4o");
});

test("SetConfig without system.crab.model is refused", async () => {
  const current = JSON.parse(await client.getConfig());
  delete current.system.crab.model;
  await expectError(client.setConfig(JSON.stringify(current)), 400, "system.crab.model is required");
  expect(readFileSync(configPath(), "utf8")).toBe(INITIAL);
});

test("a <redacted> secret with nothing stored is refused with 400", async () => {
  const current = JSON.parse(await client.getConfig());
  current.provider.fresh = { api_key: "<redacted>", models: ["x1"] };
  await expectError(client.setConfig(JSON.stringify(current)), 400, "provider 'fresh'");
  expect(readFileSync(configPath(), "utf8")).toBe(INITIAL);
});

test("Reload picks up a hand-edited config.toml", async () => {
  writeFileSync(configPath(), INITIAL.replace('model = "gpt-4o"', 'model = "gpt-4o-mini"'));
  await client.reload();
  expect((await client.getStats()).activeModel).toBe("gpt-4o-mini");
});

test("Reload of a broken config.toml answers 500 and the old config stays in effect", async () => {
  writeFileSync(configPath(), "[provider.openai\nbroken");
  await expectError(client.reload(), 500, "syntax error at line 1");
  expect((await client.getStats()).activeModel).toBe("gpt-4o");
  expect(JSON.parse(await client.getConfig()).provider.openai.models).toEqual(["gpt-4o", "gpt-4o-mini"]);
});

test("GetStats reports uptime, sessions, agents and the active model", async () => {
  const stats = await client.getStats();
  expect(stats.activeSessions).toBe(0);
  expect(stats.registeredAgents).toBe(1);
  expect(stats.activeModel).toBe("gpt-4o");
  expect(stats.uptimeSecs).toBeGreaterThanOrEqual(0n);
});

test("reloads racing config changes never put back an older config: each change is what the daemon ends with", async () => {
  mkdirSync(join(daemon.home, "local/skills/racer"), { recursive: true });
  writeFileSync(join(daemon.home, "local/skills/racer/SKILL.md"), "---\nname: racer\ndescription: races\n---\nRun.\n");
  await client.reload();
  // One request at a time per connection: a connection for each racer.
  const before = await daemon.client();
  const after = await daemon.client();
  try {
    for (let round = 0; round < 10; round++) {
      const enabled = round % 2 === 1;
      // Reloads that read the file just before and just after the change is written, and the change's own reload.
      await Promise.all([before.reload(), client.setEnabled(ResourceKind.SKILL, "racer", enabled), after.reload()]);
      const skills = (JSON.parse(await client.getConfig()) as { disabled: { skills: string[] } }).disabled.skills;
      expect({ round, skills }).toEqual({ round, skills: enabled ? [] : ["racer"] });
    }
  } finally {
    await before.close();
    await after.close();
  }
});
