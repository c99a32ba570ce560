// `crabtalk setup --preset … --model …` against a fake provider: the config
// it writes survives a daemon restart and answers a send; bad input changes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { startFakeGemini } from "../support/fake-gemini.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";

const KEY = "sk-setup-test-0123456789";
const env = { SETUP_TEST_KEY: KEY };
let openai: FakeLLM;
let gemini: FakeLLM;
let home: string;
let daemon: TestDaemon;
const config = () => readFileSync(join(home, "config.toml"), "utf8");
const cli = (args: string[]) => runCli(args, { home, env });

beforeAll(async () => {
  openai = await startFakeOpenAI();
  gemini = await startFakeGemini();
  home = tempHome();
  daemon = await startDaemon({ home, env });
});
afterAll(async () => {
  await daemon.stop();
  await openai.stop();
  await gemini.stop();
  cleanup(home);
});

test("bad input is refused with one clear line and changes nothing", async () => {
  const before = config();
  for (const [args, message] of [
    [["--preset", "nope", "--model", "m"], "unknown preset 'nope': one of anthropic, openai, google, ollama, azure"],
    [["--preset", "openai", "--api-key-env", "SETUP_TEST_KEY"], "--preset needs --model"],
    [["--preset", "openai", "--model", "m"], "preset 'openai' needs --api-key-env <var>"],
    [["--preset", "openai", "--model", "m", "--api-key-env", "sk-oops pasted key"], "--api-key-env takes a variable name"],
  ] as const) {
    const r = await cli(["setup", ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith(`crabtalk: ${message}`);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  }
  const piped = await cli(["setup"]);
  expect(piped.code).toBe(1);
  expect(piped.stderr).toContain("give --preset and --model");
  expect(config()).toBe(before);
});

test("--preset openai writes ${VAR}, not the key, sends a test message, and survives a restart", async () => {
  openai.script({ text: "Connection works." });
  const r = await cli(["setup", "--preset", "openai", "--api-key-env", "SETUP_TEST_KEY", "--model", "fake-model", "--base-url", openai.url]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("provider 'openai' saved; active model: fake-model\ntest message answered by fake-model: Connection works.\n");
  expect(config()).toContain('api_key = "${SETUP_TEST_KEY}"');
  expect(config()).not.toContain(KEY);
  expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

  expect(await daemon.stop()).toBe(0);
  daemon = await startDaemon({ home, env });
  openai.script({ text: "after the restart" });
  const sent = await cli(["send", "hello again"]);
  expect(sent.code).toBe(0);
  expect(sent.stdout).toBe("after the restart\n");
});

test("a second provider (Gemini) becomes the active one; the first keeps its table", async () => {
  gemini.script({ text: "Gemini here." });
  const r = await cli(["setup", "--preset", "google", "--api-key-env", "SETUP_TEST_KEY", "--model", "gemini-fake", "--base-url", gemini.url]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("test message answered by gemini-fake: Gemini here.");
  const models = await runCli(["models", "--json"], { home });
  expect(JSON.parse(models.stdout).map((m: { name: string; active: boolean }) => [m.name, m.active])).toEqual([
    ["fake-model", false],
    ["gemini-fake", true],
  ]);
});

test("a failing test message prints the exact error and exits 1; the provider stays written", async () => {
  openai.script({ error: { status: 401, message: "Incorrect API key provided" } });
  const r = await cli(["setup", "--preset", "openai", "--api-key-env", "SETUP_TEST_KEY", "--model", "fake-model", "--base-url", openai.url]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    "crabtalk: the test message failed: provider 'openai' refused the API key (HTTP 401): Incorrect API key provided; check the credentials of [provider.openai]\n",
  );
  expect(r.stderr).not.toContain(KEY);
  expect(config()).toContain('model = "fake-model"');
});
