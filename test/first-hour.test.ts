// The first hour of a new user, end to end, on an empty home with a fake
// provider: every step through the real CLI and daemon (chat through a real
// pseudo-terminal), asserting what the user sees.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "./support/cli.ts";
import { cleanup, MAIN, startDaemon, type TestDaemon } from "./support/daemon.ts";
import { startFakeOpenAI } from "./support/fake-openai.ts";
import type { FakeLLM } from "./support/fake-llm.ts";
import { spawnPty } from "./support/pty-process.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

// No key in the environment and no Ollama: nothing is detected, as on a fresh machine.
const FRESH = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", CRABTALK_OLLAMA_URL: "http://127.0.0.1:9" };
let daemon: TestDaemon;
let fake: FakeLLM;
const user = (...args: string[]) => runCli(args, { home: daemon.home, env: FRESH });
const configText = () => readFileSync(join(daemon.home, "config.toml"), "utf8");

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({ env: FRESH });
});
afterAll(async () => {
  await daemon.stop();
  await fake.stop();
  cleanup(daemon.home);
});

test("the first hour", async () => {
  // 1. The first message, before any provider: told where the config is and what to run.
  const first = await user("send", "hello");
  expect(first.code).toBe(1);
  expect(first.stderr).toContain(`no model configured in ${join(daemon.home, "config.toml")}`);
  expect(first.stderr).toContain("crabtalk providers add");

  // 2. A provider from flags: its first model becomes the active one.
  const template = configText();
  const added = await user("providers", "add", "fake", "--base-url", fake.url, "--api-key-env", "FAKE_KEY", "--model", "fake-model");
  expect(added.stdout).toBe("provider fake added: fake-model\nactive model: fake-model\n");
  expect((await user("models")).stdout).toMatch(/^\*\s+fake-model\s+fake\s+openai/m);

  // 3. Now sending works.
  fake.script({ text: "Hi! I am Crab." });
  expect(await user("send", "hello")).toMatchObject({ code: 0, stdout: "Hi! I am Crab.\n" });

  // 4. A setting changed by key; the template's comments all stay.
  expect((await user("config", "set", "system.crab.max_iterations", "8")).stdout).toBe("system.crab.max_iterations = 8\n");
  const after = configText();
  const comments = template.split("\n").filter((l) => l.trimStart().startsWith("#"));
  expect(comments.length).toBeGreaterThan(10);
  expect(comments.filter((c) => !after.includes(c))).toEqual([]);
  expect((await user("agents", "show", "crab")).stdout).toMatch(/max_iterations:\s+8/);

  // 5. An agent of one's own, used, then deleted: gone everywhere.
  expect((await user("agents", "create", "reviewer", "--description", "reviews diffs")).stdout).toBe("created agent reviewer\n");
  fake.script({ text: "LGTM" });
  expect((await user("send", "--agent", "reviewer", "review this")).stdout).toBe("LGTM\n");
  expect((await user("agents", "delete", "reviewer")).stdout).toBe("deleted agent reviewer\n");
  expect((await user("agents", "list")).stdout).not.toContain("reviewer");
  expect(existsSync(join(daemon.home, "local/agents/reviewer.md"))).toBe(false);
  expect((await user("send", "--agent", "reviewer", "still there?")).code).toBe(1);

  // 6. A chat at a terminal: resumed note, a command, an unknown one, a
  //    multi-line message and a question answered in place.
  const chat = spawnPty([process.execPath, MAIN, "chat"], { ...process.env, ...FRESH, CRABTALK_HOME: daemon.home, NO_COLOR: "1", TERM: "xterm" });
  try {
    // Two: the first "hello" never left the CLI (no model yet); the answered one and its answer.
    let at = await chat.waitFor(/resumed: [^\n]*, 2 messages — \/new to start over/);
    at = await chat.waitFor("crab› ", at);
    chat.type("/help\r");
    at = await chat.waitFor("/new           start a new conversation", at);
    chat.type("/hlep\r");
    at = await chat.waitFor("unknown command /hlep — did you mean /help?", at);

    const questions = [
      {
        question: "Which language?",
        header: "Lang",
        options: [
          { label: "Rust", description: "" },
          { label: "Go", description: "" },
        ],
      },
    ];
    fake.script({ toolCalls: [{ id: "q1", name: "ask_user", arguments: JSON.stringify({ questions }) }] }, { text: "Go it is." });
    chat.type("plan a tool\\\r");
    at = await chat.waitFor("… ", at);
    chat.type("in a compiled language\r");
    at = await chat.waitFor("Which language?", at);
    chat.type("2\r");
    at = await chat.waitFor("Go it is.", at);
    const messages: { role: string; content: string }[] = fake.requests.filter((r) => r.body?.stream === true).at(-1)!.body.messages;
    expect(messages.filter((m) => m.role === "user").at(-1)?.content).toBe("plan a tool\nin a compiled language");
    expect(messages.at(-1)).toMatchObject({ role: "tool" });
    expect(messages.at(-1)!.content).toContain("Go");

    chat.type("/quit\r");
    expect(await chat.exited).toBe(0);
  } finally {
    chat.kill();
  }
});
