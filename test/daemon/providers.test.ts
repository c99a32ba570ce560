// Provider and model management over the protocol (docs/protocol.md#providers-and-models).
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { ProviderKind, ResourceKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";

const INITIAL = `# my providers
[provider.openai]
api_key = "sk-stored-1"
models = ["gpt-4o", "gpt-4o-mini"]

# the local one
[provider.local]
kind = "ollama"
base_url = "http://127.0.0.1:11434/v1"
models = ["llama3"]

[system.crab]
# the model every agent uses unless it names one
model = "gpt-4o"
`;

let daemon: TestDaemon;
let client: Client;
const configText = () => readFileSync(join(daemon.home, "config.toml"), "utf8");

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
  writeFileSync(join(daemon.home, "config.toml"), INITIAL);
  await client.reload();
});

test("ListProviders: every provider, redacted, with active and enabled", async () => {
  const providers = await client.listProviders();
  expect(providers.map((p) => [p.name, p.active, p.enabled])).toEqual([
    ["openai", true, true],
    ["local", false, true],
  ]);
  expect(JSON.parse(providers[0].config)).toEqual({ api_key: "<redacted>", models: ["gpt-4o", "gpt-4o-mini"] });
  expect(JSON.parse(providers[1].config)).toMatchObject({ kind: "ollama", base_url: "http://127.0.0.1:11434/v1" });
  expect(providers.map((p) => p.config).join("")).not.toContain("sk-stored-1");
});

test("SetProvider writes one table, keeps a redacted secret and every comment, and reloads", async () => {
  const [openai] = await client.listProviders();
  const def = JSON.parse(openai.config);
  def.models = ["gpt-4o", "gpt-4o-mini", "o3"];
  const reply = await client.setProvider("openai", JSON.stringify(def));
  expect(reply).toHaveLength(1);
  expect(JSON.parse(reply[0].config).models).toEqual(["gpt-4o", "gpt-4o-mini", "o3"]);
  const text = configText();
  expect(text).toContain('api_key = "sk-stored-1"');
  for (const comment of ["# my providers", "# the local one", "# the model every agent uses"]) expect(text).toContain(comment);
  expect((await client.listModels()).map((m) => m.name)).toContain("o3");
  // A new provider is added the same way.
  await client.setProvider("extra", JSON.stringify({ kind: "anthropic", api_key: "sk-ant-new", models: ["claude-x"] }));
  expect((await client.listProviders()).map((p) => p.name)).toEqual(["openai", "local", "extra"]);
});

test("SetProvider refuses bad definitions with 400 and changes nothing", async () => {
  for (const [name, json, text] of [
    ["openai", "{oops", "invalid provider JSON"],
    ["openai", JSON.stringify({ api_key: "k", models: [] }), "must list at least one model"],
    ["dup", JSON.stringify({ api_key: "k", models: ["llama3"] }), "duplicate model name 'llama3'"],
    ["fresh", JSON.stringify({ api_key: "<redacted>", models: ["m"] }), "provider 'fresh'"],
    ["aws", JSON.stringify({ kind: "bedrock", models: ["b"] }), "required for kind 'bedrock'"],
  ] as const) {
    const e = await daemonError(client.setProvider(name, json));
    expect(e.code).toBe(400);
    expect(e.message).toContain(text);
  }
  expect(configText()).toBe(INITIAL);
});

test("DeleteProvider removes the table (404 for an unknown one)", async () => {
  await client.deleteProvider("local");
  expect((await client.listProviders()).map((p) => p.name)).toEqual(["openai"]);
  expect(configText()).not.toContain("[provider.local]");
  expect((await daemonError(client.deleteProvider("local"))).code).toBe(404);
});

test("SetActiveModel switches the active model in place (404 for an unknown model)", async () => {
  await client.setActiveModel("llama3");
  expect((await client.getStats()).activeModel).toBe("llama3");
  expect(configText()).toContain('model = "llama3"');
  expect(configText()).toContain("# the model every agent uses");
  expect((await client.listProviders()).find((p) => p.active)?.name).toBe("local");
  expect((await daemonError(client.setActiveModel("no-such-model"))).code).toBe(404);
});

test("ListModels: every model in file order with provider, active, enabled and kind", async () => {
  const models = await client.listModels();
  expect(models.map((m) => [m.name, m.provider, m.active, m.enabled, m.kind])).toEqual([
    ["gpt-4o", "openai", true, true, ProviderKind.OPENAI],
    ["gpt-4o-mini", "openai", false, true, ProviderKind.OPENAI],
    ["llama3", "local", false, true, ProviderKind.OLLAMA],
  ]);
});

test("ListProviderPresets returns the preset table", async () => {
  const presets = await client.listProviderPresets();
  expect(presets.map((p) => p.name)).toEqual(["anthropic", "openai", "google", "ollama", "azure"]);
  expect(presets.find((p) => p.name === "anthropic")).toMatchObject({ kind: ProviderKind.ANTHROPIC, fixedBaseUrl: "https://api.anthropic.com/v1" });
});

test("SetEnabled disables and enables names; never the active model's provider", async () => {
  await client.setEnabled(ResourceKind.PROVIDER, "local", false);
  expect((await client.listProviders()).find((p) => p.name === "local")?.enabled).toBe(false);
  expect((await client.listModels()).find((m) => m.name === "llama3")?.enabled).toBe(false);
  await client.setEnabled(ResourceKind.PROVIDER, "local", false); // once only
  expect(JSON.parse(await client.getConfig()).disabled.providers).toEqual(["local"]);
  expect(await daemonError(client.setEnabled(ResourceKind.SKILL, "noisy", false))).toMatchObject({
    code: 400,
    message: "cannot disable skill 'noisy': there is none",
  });
  mkdirSync(join(daemon.home, "local/skills/noisy"), { recursive: true });
  writeFileSync(join(daemon.home, "local/skills/noisy/SKILL.md"), "---\nname: noisy\ndescription: loud\n---\nShout.\n");
  await client.setEnabled(ResourceKind.SKILL, "noisy", false);
  expect(JSON.parse(await client.getConfig()).disabled.skills).toEqual(["noisy"]);
  await client.setEnabled(ResourceKind.PROVIDER, "local", true);
  expect(JSON.parse(await client.getConfig()).disabled.providers).toEqual([]);
  const refused = await daemonError(client.setEnabled(ResourceKind.PROVIDER, "openai", false));
  expect(refused).toMatchObject({ code: 400, message: "cannot disable provider 'openai' — it serves the active model 'gpt-4o'" });
  expect((await daemonError(client.setEnabled(ResourceKind.RESOURCE_KIND_UNKNOWN, "x", false))).code).toBe(400);
});

test("ListProviders says whether each key resolves in the daemon and from where, never the key", async () => {
  writeFileSync(
    join(daemon.home, "config.toml"),
    `${INITIAL}\n[provider.fromenv]\napi_key = "\${PROVIDERS_TEST_UNSET}"\nmodels = ["m1"]\n\n[provider.fromtable]\nkind = "anthropic"\napi_key = "\${TABLE_KEY}"\nmodels = ["m2"]\n\n[env]\nTABLE_KEY = "sk-table-secret"\n`,
  );
  await client.reload();
  const providers = await client.listProviders();
  const keys = Object.fromEntries(
    providers.map((p) => [p.name, p.keys.map(({ field, resolved, source, vars, unset, required }) => ({ field, resolved, source, vars, unset, required }))]),
  );
  expect(keys).toEqual({
    openai: [{ field: "api_key", resolved: true, source: "config", vars: [], unset: [], required: true }],
    local: [],
    fromenv: [{ field: "api_key", resolved: false, source: "", vars: ["PROVIDERS_TEST_UNSET"], unset: ["PROVIDERS_TEST_UNSET"], required: true }],
    fromtable: [{ field: "api_key", resolved: true, source: "env_table", vars: ["TABLE_KEY"], unset: [], required: true }],
  });
  const wire = JSON.stringify(providers, (_, v) => (typeof v === "bigint" ? String(v) : v));
  for (const secret of ["sk-stored-1", "sk-table-secret"]) expect(wire).not.toContain(secret);
});
