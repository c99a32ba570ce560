// `crabtalk providers`, `models`, `enable`/`disable` against a real daemon.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";

let daemon: TestDaemon;
const cli = (args: string[], stdin?: string) => runCli(args, { home: daemon.home, stdin });

beforeAll(async () => {
  daemon = await startDaemon({
    config: '[provider.openai]\napi_key = "sk-cli-providers"\nmodels = ["gpt-4o", "gpt-4o-mini"]\n\n[system.crab]\nmodel = "gpt-4o"\n',
  });
});
afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
});

test("providers list shows redacted definitions; --json for scripts", async () => {
  const r = await cli(["providers", "list"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^NAME\s+ACTIVE\s+ENABLED\s+DEFINITION\nopenai\s+yes\s+yes\s+\{"api_key":"<redacted>"/);
  expect(r.stdout).not.toContain("sk-cli-providers");
  const json = JSON.parse((await cli(["providers", "list", "--json"])).stdout);
  expect(json[0].name).toBe("openai");
});

test("providers set adds one from JSON, stdin or a file; delete removes it", async () => {
  const def = { kind: "ollama", base_url: "http://127.0.0.1:11434/v1", models: ["llama3"] };
  expect((await cli(["providers", "set", "local", JSON.stringify(def)])).stdout).toContain("provider local saved");
  expect((await cli(["providers", "set", "local2", "-"], JSON.stringify({ ...def, models: ["qwen"] }))).code).toBe(0);
  const file = join(daemon.home, "local3.json");
  writeFileSync(file, JSON.stringify({ ...def, models: ["phi"] }));
  expect((await cli(["providers", "set", "local3", `@${file}`])).code).toBe(0);
  expect((await cli(["providers", "list", "--json"])).stdout).toContain('"local3"');
  const bad = await cli(["providers", "set", "broken", '{"models": []}']);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("must list at least one model");
  expect((await cli(["models", "--json"])).stdout).toContain("qwen");
  expect((await cli(["providers", "delete", "local2"])).code).toBe(0);
  expect(readFileSync(join(daemon.home, "config.toml"), "utf8")).not.toContain("local2");
  expect((await cli(["providers", "delete", "local2"])).stderr).toContain("provider 'local2' not found");
});

test("models lists every model and marks the active one; models use switches it", async () => {
  const list = await cli(["models"]);
  expect(list.stdout).toMatch(/^\*\s+gpt-4o\s+openai\s+openai/m);
  expect((await cli(["models", "use", "gpt-4o-mini"])).stdout).toContain("active model: gpt-4o-mini");
  expect(JSON.parse((await cli(["stats", "--json"])).stdout).active_model).toBe("gpt-4o-mini");
  expect((await cli(["models", "use", "nope"])).code).toBe(1);
});

test("disable and enable edit [disabled]; the active model's provider cannot be disabled", async () => {
  mkdirSync(join(daemon.home, "local/skills/noisy"), { recursive: true });
  writeFileSync(join(daemon.home, "local/skills/noisy/SKILL.md"), "---\nname: noisy\ndescription: loud\n---\nShout.\n");
  expect((await cli(["disable", "skill", "noisy"])).stdout).toContain("skill noisy disabled");
  expect(JSON.parse((await cli(["config", "get", "disabled"])).stdout).skills).toEqual(["noisy"]);
  expect((await cli(["enable", "skill", "noisy"])).code).toBe(0);
  const refused = await cli(["disable", "provider", "openai"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("cannot disable provider 'openai'");
  expect((await cli(["disable", "gadget", "x"])).stderr).toContain("unknown kind 'gadget'");
});

test("providers presets prints the preset table", async () => {
  const r = await cli(["providers", "presets"]);
  expect(r.stdout).toMatch(/anthropic\s+anthropic\s+https:\/\/api\.anthropic\.com\/v1\s+claude-/);
});
