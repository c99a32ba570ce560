// `crabtalk chat` at a terminal (a real pseudo-terminal), against the real
// daemon: what a person sees and what reaches the model.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN } from "../support/daemon.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { spawnPty, type PtyProcess } from "../support/pty-process.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup('\n# The type-ahead test gates a bash call on a file in the home, which a sandbox hides.\n[system.tools]\nsandbox = "off"\n');
  mkdirSync(join(s.daemon.home, "local/skills/greet"), { recursive: true });
  writeFileSync(join(s.daemon.home, "local/skills/greet/SKILL.md"), "---\nname: greet\ndescription: says hello\n---\nGreet warmly.\n");
});
afterAll(() => s.stop());

const chat = (...args: string[]): PtyProcess =>
  spawnPty([process.execPath, MAIN, "chat", ...args], { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1", TERM: "xterm" });
const chatRequests = () => s.fake.requests.filter((r) => r.body?.stream === true && !isTitleRequest(r.body)).length;

test("chat says which conversation it resumed, and how to start over", async () => {
  s.fake.script({ text: "hello to you" });
  expect((await s.cli(["send", "--sender", "resumer", "hello"])).code).toBe(0);
  const t = chat("--sender", "resumer");
  try {
    await t.waitFor(/resumed: [^\n]*, 2 messages — \/new to start over/);
  } finally {
    t.kill();
  }
  const fresh = chat("--sender", "nobody-yet");
  try {
    const at = await fresh.waitFor("Ctrl-D quits");
    await fresh.waitFor("› ", at);
    expect(fresh.screen()).not.toContain("resumed:");
  } finally {
    fresh.kill();
  }
});

test("unknown slash commands are refused with the closest match and never reach the model", async () => {
  const t = chat("--sender", "slashes");
  try {
    let at = await t.waitFor("› ");
    const before = chatRequests();
    t.type("/bogus\r");
    at = await t.waitFor("unknown command /bogus (/help lists commands)", at);
    t.type("/gret hi\r");
    at = await t.waitFor("unknown command /gret — did you mean /greet? (/help lists commands)", at);
    t.type("/hepl\r");
    at = await t.waitFor("did you mean /help?", at);
    expect(chatRequests()).toBe(before);
    // A real skill goes to the agent with the skill attached.
    s.fake.script({ text: "Hello there!" });
    t.type("/greet the team\r");
    await t.waitFor("Hello there!", at);
    expect(s.lastChatBody()).toContain('<skill name=\\"greet\\">');
  } finally {
    t.kill();
  }
});

test("tab completes commands and skill names", async () => {
  const t = chat("--sender", "tabs");
  try {
    let at = await t.waitFor("› ");
    s.fake.script({ text: "completed" });
    t.type("/gr\t");
    at = await t.waitFor("/greet", at);
    t.type(" everyone\r");
    await t.waitFor("completed", at);
    expect(s.lastUserMessage()).toContain("everyone");
    expect(s.lastChatBody()).toContain('<skill name=\\"greet\\">');
  } finally {
    t.kill();
  }
});

test("a trailing backslash and a bracketed paste give multi-line messages", async () => {
  const t = chat("--sender", "lines");
  try {
    let at = await t.waitFor("› ");
    s.fake.script({ text: "got two lines" }, { text: "got the paste" });
    t.type("first line\\\r");
    at = await t.waitFor("… ", at);
    t.type("second line\r");
    at = await t.waitFor("got two lines", at);
    expect(s.lastUserMessage()).toBe("first line\nsecond line");
    t.type("\x1b[200~alpha\rbeta\rgamma\x1b[201~");
    t.type("\r");
    await t.waitFor("got the paste", at);
    expect(s.lastUserMessage()).toBe("alpha\nbeta\ngamma");
  } finally {
    t.kill();
  }
});

test("a line typed while the agent works is not taken as the answer to its question", async () => {
  const gate = join(s.daemon.home, "gate");
  const wait = { toolCalls: [{ id: "w1", name: "bash", arguments: JSON.stringify({ command: `while [ ! -f ${gate} ]; do sleep 0.05; done` }) }] };
  const questions = [
    {
      question: "Which color?",
      header: "Color",
      options: [
        { label: "red", description: "" },
        { label: "blue", description: "" },
      ],
    },
  ];
  const ask = { toolCalls: [{ id: "a1", name: "ask_user", arguments: JSON.stringify({ questions }) }] };
  s.fake.script(wait, ask, { text: "blue it is" });
  const t = chat("--sender", "typeahead");
  try {
    let at = await t.waitFor("› ");
    const asked = s.fake.requests.length;
    t.type("paint it\r");
    at = await t.waitFor("paint it", at);
    // The bash call now waits for the gate: what is typed meanwhile is type-ahead.
    while (s.fake.requests.length === asked) await Bun.sleep(20);
    t.type("red\r");
    at = await t.waitFor("red", at); // chat has read it
    writeFileSync(gate, "");
    at = await t.waitFor("(discarded a line typed while the agent was working)", at);
    at = await t.waitFor("Which color?", at);
    t.type("2\r");
    await t.waitFor("blue it is", at);
    const messages: { role: string; content: string; tool_call_id?: string }[] = JSON.parse(s.lastChatBody()).messages;
    const answer = messages.find((m) => m.role === "tool" && m.tool_call_id === "a1")?.content ?? "";
    expect(answer).toContain("blue");
    expect(answer).not.toContain("red");
  } finally {
    t.kill();
  }
});

test("Markdown is drawn for the terminal, and left raw in a pipe", async () => {
  const answer = "# Plan\n\n- **first** step\n- second `step`\n\n```\ncode here\n```\nDone.";
  s.fake.script({ text: answer });
  const t = chat("--sender", "markdown");
  try {
    const at = await t.waitFor("› ");
    t.type("make a plan\r");
    const end = await t.waitFor("Done.", at);
    const shown = t.screen().slice(at, end);
    expect(shown).toContain("Plan\n");
    expect(shown).not.toContain("# Plan");
    expect(shown).toContain("• first step");
    expect(shown).toContain("• second step");
    expect(shown).toContain("  code here");
    expect(shown).not.toContain("**");
  } finally {
    t.kill();
  }
  s.fake.script({ text: answer });
  expect((await s.cli(["send", "--sender", "markdown-pipe", "make a plan"])).stdout).toBe(`${answer}\n`);
});
