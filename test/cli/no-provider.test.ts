// start, send and chat with no provider configured and none detected: in a
// pipe one line naming `crabtalk setup` (and the key variables found); at a
// terminal an offer to run setup, after which the message is answered.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { KEYS, runCliInPty } from "../support/pty.ts";

/** No key anywhere, and detection's Ollama probe pointed at a port nobody listens on. */
const NONE = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "", GOOGLE_API_KEY: "", AZURE_OPENAI_API_KEY: "" };
let home: string;
let daemon: TestDaemon;
let fake: FakeLLM;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ["local-model"] });
  home = tempHome();
  daemon = await startDaemon({ home, env: { ...NONE, CRABTALK_OLLAMA_URL: "http://127.0.0.1:9" } });
});
afterAll(async () => {
  await daemon.stop();
  await fake.stop();
  cleanup(home);
});

const FIX = "run crabtalk setup, or crabtalk providers add NAME --kind KIND --api-key-env VAR --model MODEL (then crabtalk models use MODEL to switch)";
const noModel = () => `crabtalk: no model configured in ${join(home, "config.toml")}: ${FIX}`;
const NO_KEY = "; no provider key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, …) is set here\n";

test("send in a pipe fails with one line naming crabtalk setup; nothing is sent", async () => {
  const r = await runCli(["send", "hello"], { home, env: NONE });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe(noModel() + NO_KEY);
  expect(fake.requests).toHaveLength(0);
});

test("the line names the key variables found, with the setup command for them", async () => {
  const r = await runCli(["send", "--json", "hello"], { home, env: { ...NONE, GEMINI_API_KEY: "g-key-value" } });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(`${noModel()}; found GEMINI_API_KEY here: crabtalk setup --preset google --api-key-env GEMINI_API_KEY --model <model>\n`);
  expect(r.stderr).not.toContain("g-key-value");
});

test("chat in a pipe fails the same way before reading any line", async () => {
  const r = await runCli(["chat"], { home, env: NONE, stdin: "hello\n" });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(noModel() + NO_KEY);
});

test("start on a running daemon without a provider says how to add one", async () => {
  const r = await runCli(["start"], { home, env: NONE });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("already running");
  expect(r.stdout).toContain(`no model configured in ${join(home, "config.toml")}: run crabtalk setup`);
});

test("at a terminal, send offers setup; after it the message is answered", async () => {
  fake.script({ text: "setup test answered" }, { text: "the real answer" });
  const pty = runCliInPty(["send", "the real question"], { home, env: NONE });
  try {
    await pty.waitFor("Run crabtalk setup now?");
    pty.type(KEYS.enter); // yes
    await pty.waitFor("Which provider?");
    for (let i = 0; i < 3; i++) pty.type(KEYS.down); // anthropic → openai → google → ollama
    pty.type(KEYS.enter);
    await pty.waitFor("Base URL");
    pty.type(fake.url);
    pty.type(KEYS.enter);
    await pty.waitFor("Which model?");
    pty.type(KEYS.enter); // local-model, the only one listed
    await pty.waitFor("the real answer");
    expect(await pty.exited).toBe(0);
  } finally {
    pty.kill();
  }
  expect(readFileSync(join(home, "config.toml"), "utf8")).toContain("[provider.ollama]");
  const asked = fake.requests.filter((r) => r.body?.stream === true).map((r) => JSON.stringify(r.body.messages));
  expect(asked.at(-1)).toContain("the real question");
});
