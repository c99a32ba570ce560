// `crabtalk config set KEY VALUE`, comment-preserving rewrites, unknown-key
// warnings and refused dangling references, through the real CLI and daemon.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let daemon: TestDaemon;
let fake: FakeLLM;
const cli = (...args: string[]) => runCli(args, { home: daemon.home });
const configText = () => readFileSync(join(daemon.home, "config.toml"), "utf8");

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({
    config: `# My crabtalk settings, written by hand.

[provider.fake]
api_key = "test-key"   # not a real key
base_url = "${fake.url}"
models = ["fake-model", "other-model"]

# The default agent.
[system.crab]
model = "fake-model"   # the active model
max_iterations = 16
`,
  });
});
afterAll(async () => {
  await daemon.stop();
  await fake.stop();
  cleanup(daemon.home);
});

test("config set KEY VALUE types the value by the schema and keeps every comment", async () => {
  expect(await cli("config", "set", "system.crab.max_iterations", "32")).toMatchObject({ code: 0, stdout: "system.crab.max_iterations = 32\n" });
  expect((await cli("config", "set", "system.crab.thinking", "true")).code).toBe(0);
  expect((await cli("config", "set", "system.crab.model", "other-model")).code).toBe(0);
  expect((await cli("config", "set", "system.crab.members", "a,b")).stderr).toBe("");
  const text = configText();
  for (const comment of ["# My crabtalk settings, written by hand.", "# not a real key", "# The default agent.", '"other-model"   # the active model']) {
    expect(text).toContain(comment);
  }
  expect(text).toContain("max_iterations = 32");
  expect(text).toContain("thinking = true");
  expect(text).toContain('members = [ "a", "b" ]');
  expect(text).not.toContain("compact_threshold"); // defaults are not planted
  const crab = (await cli("agents", "show", "crab")).stdout;
  expect(crab).toMatch(/max_iterations:\s+32/);
  expect(crab).toMatch(/model:\s+other-model/);
});

test("config set refuses wrong types and unknown keys, naming the closest key, and changes nothing", async () => {
  const before = configText();
  const cases: [string[], string][] = [
    [["system.crab.thinking", "yes"], "system.crab.thinking takes true or false, not 'yes'"],
    [["system.crab.max_iterations", "many"], "system.crab.max_iterations takes a whole number, not 'many'"],
    [["system.crab.modle", "x"], "unknown config key 'system.crab.modle' (did you mean 'system.crab.model'?)"],
    [["provder.x.models", "m"], "unknown config key 'provder.x.models' (did you mean 'provider'?)"],
    [["system.crab", "x"], "'system.crab' is a table"],
    [["provider.fake.kind", "gpt"], "provider.fake.kind takes one of openai"],
    [["system.crab.model", "nosuch"], "system.crab.model: model 'nosuch' is not served by any provider"],
    [["system.crab.fallback", '["nosuch"]'], "system.crab.fallback: model 'nosuch' is not served by any provider"],
    [["system.crab.fallback", "fake-modle"], "model 'fake-modle' is not served by any provider (did you mean 'fake-model'?)"],
    [["system.budget.daily_usd", "lots"], "system.budget.daily_usd takes a number, e.g. 2.5, not 'lots'"],
    [["provider.fake.prices", "cheap"], "'provider.fake.prices' is a table: set one of its keys"],
    [["provider.fake.prices", '{"m":{"input":"x","output":1}}'], "provider.fake.prices.m.input: must be a number of US dollars"],
    [["provider.__proto__.kind", "openai"], "invalid config key"],
  ];
  for (const [args, message] of cases) {
    const r = await cli("config", "set", ...args);
    expect({ args, code: r.code }).toEqual({ args, code: 1 });
    expect(r.stderr).toContain(message);
  }
  expect(configText()).toBe(before);
});

test("config set FILE replaces the whole config and still keeps the comments", async () => {
  const json = JSON.parse((await cli("config", "get")).stdout);
  json.system.crab.max_iterations = 12;
  json.system.tasks.max_concurrent = 2;
  const file = join(daemon.home, "config.json");
  writeFileSync(file, JSON.stringify(json));
  expect((await cli("config", "set", file)).code).toBe(0);
  const text = configText();
  expect(text).toContain("# My crabtalk settings, written by hand.");
  expect(text).toContain('api_key = "test-key"   # not a real key');
  expect(text).toContain("max_iterations = 12");
  expect(text).toContain("max_concurrent = 2");
});

test("decimal keys take decimals; prices are set as JSON or one by one, and an inline table keeps every comment", async () => {
  const text = `# hand-written
[provider.fake]
api_key = "test-key"   # not a real key
base_url = "${fake.url}"
models = [
  "fake-model",  # the cheap one
  "other-model",
]
# USD per million tokens, as docs/usage.md writes them
prices = { "fake-model" = { input = 2.5, output = 10 } }   # from the price page

[system]
crab.model = "other-model"   # a dotted key
`;
  writeFileSync(join(daemon.home, "config.toml"), text);
  expect((await cli("reload")).code).toBe(0);
  expect(await cli("config", "set", "system.budget.daily_usd", "2.5")).toMatchObject({ code: 0, stdout: "system.budget.daily_usd = 2.5\n" });
  expect((await cli("config", "set", 'provider.fake.prices."fake-model".input', "3.75")).code).toBe(0);
  expect((await cli("config", "set", "provider.fake.prices", '{"fake-model":{"input":3.75,"output":10},"other-model":{"input":1,"output":2}}')).code).toBe(0);
  expect((await cli("config", "set", "system.crab.thinking", "true")).code).toBe(0);
  expect((await cli("config", "set", "system.crab.fallback", "fake-model")).code).toBe(0);
  const after = configText();
  for (const line of [
    "# hand-written",
    'api_key = "test-key"   # not a real key',
    '"fake-model",  # the cheap one',
    "# USD per million tokens, as docs/usage.md writes them",
    'crab.model = "other-model"   # a dotted key',
  ]) {
    expect(after).toContain(line);
  }
  expect(after).toContain("prices = { fake-model = { input = 3.75, output = 10 }, other-model = { input = 1, output = 2 } }   # from the price page");
  expect(after).toContain("daily_usd = 2.5");
  const json = JSON.parse((await cli("config", "get")).stdout);
  expect(json.provider.fake.prices["other-model"]).toEqual({ input: 1, output: 2 });
  expect(json.system.crab).toMatchObject({ model: "other-model", thinking: true, fallback: ["fake-model"] });
});

test("unknown tables and keys in config.toml are reported with the closest known name", async () => {
  writeFileSync(join(daemon.home, "config.toml"), `${configText()}\n[provder.typo]\nmodels = ["x"]\n`);
  const reload = await cli("reload");
  expect(reload.code).toBe(0);
  expect(reload.stderr).toBe("crabtalk: warning: config.toml: unknown key provder (did you mean provider?); ignored\n");
  const log = readFileSync(join(daemon.home, "logs/daemon.log"), "utf8");
  expect(log).toContain("config.toml: unknown key provder (did you mean provider?); ignored");
});

test("references that point nowhere are refused with 400 naming the thing", async () => {
  const refused: [string[], string][] = [
    [["agents", "create", "helper", "--model", "nosuch"], "model 'nosuch' is not served by any provider"],
    [["disable", "skill", "nosuch"], "cannot disable skill 'nosuch': there is none"],
    [["disable", "provider", "fak"], "cannot disable provider 'fak': there is none (did you mean 'fake'?)"],
    [["providers", "delete", "fake"], "cannot delete provider 'fake': it serves the active model 'other-model'"],
  ];
  for (const [args, message] of refused) {
    const r = await cli(...args);
    expect({ args, code: r.code, stderr: r.stderr.includes(message) ? message : r.stderr }).toEqual({ args, code: 1, stderr: message });
  }
  expect((await cli("agents", "create", "helper")).code).toBe(0);
  const update = await cli("agents", "update", "helper", "--model", "fake-modle");
  expect(update.stderr).toContain("model 'fake-modle' is not served by any provider (did you mean 'fake-model'?)");

  mkdirSync(join(daemon.home, "local/skills/greet"), { recursive: true });
  writeFileSync(join(daemon.home, "local/skills/greet/SKILL.md"), "---\nname: greet\ndescription: says hello\n---\nSay hello.\n");
  expect((await cli("send", "--sender", "cron-user", "hi")).code).toBe(0);
  const session = JSON.parse((await cli("sessions", "--json")).stdout).find((x: { created_by: string }) => x.created_by === "cron-user").id;
  const cron = await cli("cron", "add", "0 8 * * *", "gret", "--session", String(session));
  expect(cron.code).toBe(1);
  expect(cron.stderr).toContain("skill 'gret' not found (did you mean 'greet'?)");
  expect((await cli("cron", "add", "0 8 * * *", "greet", "--session", String(session))).code).toBe(0);
  expect((await cli("disable", "skill", "greet")).code).toBe(0);
  expect((await cli("enable", "skill", "greet")).code).toBe(0);
});
