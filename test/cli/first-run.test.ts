// The first minutes on an empty home, through the real CLI and daemon: what a
// new user sees before and after adding a provider.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

const NO_DETECTION = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", CRABTALK_OLLAMA_URL: "http://127.0.0.1:9" };
let daemon: TestDaemon;
let fake: FakeLLM;
const cli = (...args: string[]) => runCli(args, { home: daemon.home, env: NO_DETECTION });

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({ env: NO_DETECTION });
});
afterAll(async () => {
  await daemon.stop();
  await fake.stop();
  cleanup(daemon.home);
});

test("send with no model names the config file and the commands that fix it", async () => {
  const r = await cli("send", "hello");
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain(`no model configured in ${join(daemon.home, "config.toml")}`);
  for (const command of ["crabtalk setup", "crabtalk providers add", "crabtalk models use"]) expect(r.stderr).toContain(command);
  expect((await cli("models")).stdout).not.toContain("fake-model");
});

test("providers add with flags writes ${VAR} for the key and makes the first model active", async () => {
  const r = await cli("providers", "add", "fake", "--base-url", fake.url, "--api-key-env", "FAKE_KEY", "--model", "fake-model", "other-model");
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("provider fake added: fake-model, other-model\nactive model: fake-model\n");
  const config = readFileSync(join(daemon.home, "config.toml"), "utf8");
  expect(config).toContain('api_key = "${FAKE_KEY}"');
  expect(config).toMatch(/\[system\.crab\][^[]*model = "fake-model"/);
  expect(config).toContain("# "); // the template's comments are still there
  fake.script({ text: "hi there" });
  const send = await cli("send", "hello");
  expect(send).toMatchObject({ code: 0, stdout: "hi there\n" });
  expect((await cli("models")).stdout).toMatch(/^\*\s+fake-model\s+fake\s+openai/m);
});

test("a second provider does not change the active model; bad flags are refused", async () => {
  const r = await cli("providers", "add", "local", "--kind", "ollama", "--base-url", "http://127.0.0.1:9/v1", "--model", "llama3");
  expect(r.stdout).toBe("provider local added: llama3\n");
  expect((await cli("models")).stdout).toMatch(/^\*\s+fake-model/m);
  const bad = await cli("providers", "add", "x", "--api-key-env", "sk-secret value", "--model", "m");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("--api-key-env takes the name of an environment variable");
  const noModel = await cli("providers", "add", "x", "--kind", "openai");
  expect(noModel.code).not.toBe(0);
  expect(noModel.stderr).toContain("--model");
  expect(readFileSync(join(daemon.home, "config.toml"), "utf8")).not.toContain("[provider.x]");
});

test("models lists the models detected from environment keys", async () => {
  const detected = await startDaemon({ env: { ...NO_DETECTION, OPENAI_API_KEY: "sk-env-detected", OPENAI_MODEL: "env-model" } });
  try {
    const r = await runCli(["models"], { home: detected.home, env: { OPENAI_API_KEY: "" } });
    expect(r.stdout).toMatch(/^\*\s+env-model\s+openai\s+openai/m);
    expect(r.stdout).not.toContain("sk-env-detected");
  } finally {
    await detected.stop();
    cleanup(detected.home);
  }
});
