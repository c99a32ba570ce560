// `crabtalk setup` at a terminal (a real PTY): the questions, a masked key,
// the model picked from the provider's own list, and the test message.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { KEYS, runCliInPty } from "../support/pty.ts";

const KEY = "sk-pasted-interactive-98765";
let fake: FakeLLM;
let home: string;
let daemon: TestDaemon;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ["gpt-4o", "fake-model", "other-model"] });
  home = tempHome();
  daemon = await startDaemon({ home });
});
afterAll(async () => {
  await daemon.stop();
  await fake.stop();
  cleanup(home);
});

test("pick openai, paste the key (masked), pick a listed model: saved, and the test message is answered", async () => {
  fake.script({ text: "Interactive setup works." });
  const pty = runCliInPty(["setup"], { home, env: { OPENAI_API_KEY: "" } });
  try {
    await pty.waitFor("Which provider?");
    pty.type(KEYS.down); // anthropic → openai
    pty.type(KEYS.enter);
    await pty.waitFor("API key");
    pty.type(KEYS.enter); // paste the key
    await pty.waitFor("Paste the key");
    const mark = pty.screen().length;
    pty.type(KEY);
    pty.type(KEYS.enter);
    await pty.waitFor("Base URL", mark);
    pty.type(fake.url);
    pty.type(KEYS.enter);
    await pty.waitFor("Which model?");
    await pty.waitFor("other-model");
    pty.type(KEYS.down); // gpt-4o (the preset's model, preselected) → fake-model
    pty.type(KEYS.enter);
    await pty.waitFor("Interactive setup works.");
    expect(await pty.exited).toBe(0);
  } finally {
    pty.kill();
  }
  expect(pty.screen()).not.toContain(KEY);
  const config = readFileSync(join(home, "config.toml"), "utf8");
  expect(config).toContain(`api_key = "${KEY}"`);
  expect(config).toContain(`base_url = "${fake.url}"`);
  expect(config).toMatch(/\[system\.crab\][^[]*model = "fake-model"/);
  expect(fake.requests.find((r) => r.path === "/v1/models")?.headers.authorization).toBe(`Bearer ${KEY}`);
});

test("an OpenAI-compatible endpoint: its base URL, a name, no key, a model from its list", async () => {
  fake.script({ text: "The local server answers." });
  const pty = runCliInPty(["setup"], { home, env: { OPENAI_API_KEY: "" } });
  try {
    await pty.waitFor("Which provider?");
    await pty.waitFor("OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp, LM Studio, any base URL)");
    for (let i = 0; i < 5; i++) pty.type(KEYS.down); // past the five presets
    pty.type(KEYS.enter);
    await pty.waitFor("Base URL of the OpenAI-compatible API");
    pty.type(fake.url);
    pty.type(KEYS.enter);
    await pty.waitFor("A name for it in config.toml");
    pty.type("vllm");
    pty.type(KEYS.enter);
    await pty.waitFor("no key");
    pty.type(KEYS.enter); // no key (preselected)
    await pty.waitFor("Which model?");
    await pty.waitFor("other-model");
    pty.type(KEYS.down);
    pty.type(KEYS.down); // gpt-4o → fake-model → other-model
    pty.type(KEYS.enter);
    await pty.waitFor("The local server answers.");
    expect(await pty.exited).toBe(0);
  } finally {
    pty.kill();
  }
  const config = readFileSync(join(home, "config.toml"), "utf8");
  const table = config.slice(config.indexOf("[provider.vllm]"));
  expect(table).toContain(`base_url = "${fake.url}"`);
  expect(table.split(/\n\[/)[0]).not.toContain("api_key");
  expect(config).toMatch(/\[system\.crab\][^[]*model = "other-model"/);
  expect(fake.requests.at(-1)?.body.model).toBe("other-model");
});

test("Ctrl-C at the first question cancels and changes nothing", async () => {
  const before = readFileSync(join(home, "config.toml"), "utf8");
  const pty = runCliInPty(["setup"], { home });
  try {
    await pty.waitFor("Which provider?");
    pty.type(KEYS.ctrlC);
    await pty.waitFor("nothing was changed");
    expect(await pty.exited).toBe(1);
  } finally {
    pty.kill();
  }
  expect(readFileSync(join(home, "config.toml"), "utf8")).toBe(before);
});
