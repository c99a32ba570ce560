// `crabtalk chat` in a pipe (no terminal): one message per input line, answers
// on stdout, everything else on stderr, against a real daemon and a fake LLM;
// ask_user against a stub daemon that asks on demand.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runCli } from "../support/cli.ts";
import { MAIN, cleanup } from "../support/daemon.ts";
import { startAskingDaemon, type Question } from "../support/asking-daemon.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;

beforeAll(async () => {
  s = await startFakeSetup();
});

afterAll(async () => {
  await s.stop();
});

test("two lines in, two answers out, in the same session", async () => {
  s.fake.script({ text: "first answer" }, { text: "second answer" });
  const r = await s.cli(["chat", "--sender", "pipe"], "hello\nhow are you\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("first answer\nsecond answer\n");
  // Each answer's usage goes to stderr; the fake model has no price.
  expect(r.stderr).toBe("10 in · 5 out · no price\n10 in · 5 out · no price\n");
  const files = s.sessionFiles("crab_pipe_");
  expect(files).toHaveLength(1);
  expect(files[0].messages).toEqual([
    { role: "user", content: "hello" },
    { role: "assistant", content: "first answer" },
    { role: "user", content: "how are you" },
    { role: "assistant", content: "second answer" },
  ]);
  const sessions = JSON.parse((await s.cli(["sessions", "--json"])).stdout) as { created_by: string }[];
  expect(sessions.filter((x) => x.created_by === "pipe")).toHaveLength(1);
});

test("the last line needs no newline; blank lines are skipped", async () => {
  const r = await s.cli(["chat", "--sender", "blank"], "\n\n  \nonly line");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("ok\n");
  expect(s.sessionFiles("crab_blank_")[0].messages).toEqual([
    { role: "user", content: "only line" },
    { role: "assistant", content: "ok" },
  ]);
});

test("thinking and tool calls go to stderr, without colours or prompts", async () => {
  s.fake.script({ thinking: "pondering deeply", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"echo from-bash"}' }] }, { text: "listed" });
  const r = await s.cli(["chat", "--sender", "noisy"], "list files\n", { NO_COLOR: "" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("listed\n");
  expect(r.stderr).toContain("pondering deeply");
  expect(r.stderr).toContain("⚙ bash(echo from-bash)");
  expect(r.stderr).toMatch(/^ {2}✓ \d+ms: .*from-bash/m);
  expect(r.stdout + r.stderr).not.toContain("\x1b[");
  expect(r.stdout + r.stderr).not.toContain("›");
});

test("/new makes the next message start a new conversation", async () => {
  s.fake.script({ text: "one" }, { text: "two" });
  const r = await s.cli(["chat", "--sender", "renew"], "first\n/new\nsecond\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("one\ntwo\n");
  expect(r.stderr).toContain("the next message starts a new conversation");
  const files = s.sessionFiles("crab_renew_");
  expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^crab_renew_1(_.+)?\.jsonl$/), expect.stringMatching(/^crab_renew_2(_.+)?\.jsonl$/)]);
  expect(files.map((f) => f.messages[0])).toEqual([
    { role: "user", content: "first" },
    { role: "user", content: "second" },
  ]);
});

test("/agent switches agents, /sessions lists, /help explains, /quit stops reading", async () => {
  expect((await s.cli(["agents", "create", "helper"])).code).toBe(0);
  const before = s.fake.requests.length;
  const r = await s.cli(["chat", "--sender", "switch"], "to crab\n/agent nope\n/agent helper\nto helper\n/agent\n/sessions\n/help\n/quit\nnever sent\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("ok\nok\n");
  expect(r.stderr).toContain("no agent 'nope'");
  expect(r.stderr).toContain("talking to helper");
  expect(r.stderr).toMatch(/ID\s+AGENT\s+CREATED_BY\s+MESSAGES\s+ALIVE\s+ACTIVE\s+TITLE/);
  expect(r.stderr).toMatch(/\bhelper\s+switch\b/);
  for (const cmd of ["/new", "/sessions", "/agent", "/help", "/quit"]) expect(r.stderr).toContain(cmd);
  expect(s.sessionFiles("crab_switch_")[0].messages[0]).toEqual({ role: "user", content: "to crab" });
  expect(s.sessionFiles("helper_switch_")[0].messages[0]).toEqual({ role: "user", content: "to helper" });
  const sent = s.fake.requests.slice(before).map((q) => JSON.stringify(q.body));
  expect(sent.some((b) => b.includes("never sent"))).toBe(false);
});

test("a failed message is reported on stderr, the next line still runs, and the exit status is 1", async () => {
  s.fake.script({ error: { status: 401, message: "Incorrect API key provided" } });
  const r = await s.cli(["chat", "--sender", "flaky"], "denied\nallowed\n");
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("ok\n");
  expect(r.stderr).toMatch(/^error: .*401.*Incorrect API key provided/m);
});

test("Ctrl-C during an answer cancels it and keeps the session; at the prompt it exits", async () => {
  s.fake.script({ text: "too late", delayMs: 1500 });
  const chat = spawnChat(["--sender", "impatient"]);
  const before = s.fake.requests.length;
  await chat.line("slow question");
  await until(() => s.fake.requests.slice(before).some((q) => JSON.stringify(q.body).includes("slow question")));
  chat.proc.kill("SIGINT");
  await chat.line("next question");
  await until(() => s.sessionFiles("crab_impatient_")[0]?.messages.some((m) => m.content === "next question"));
  await Bun.sleep(200);
  chat.proc.kill("SIGINT");
  expect(await chat.proc.exited).toBe(0);
  expect(await chat.stdout).toBe("ok\n");
  expect(await chat.stderr).toContain("answer cancelled; what it had said is kept in the session as interrupted");
  const files = s.sessionFiles("crab_impatient_");
  expect(files).toHaveLength(1);
  expect(files[0].messages.at(-2)).toEqual({ role: "user", content: "next question" });
});

test("a session killed between messages: chat continues the latest conversation", async () => {
  const chat = spawnChat(["--sender", "killed"]);
  await chat.line("before the kill");
  await until(() => s.sessionFiles("crab_killed_")[0]?.messages.length === 2);
  const sessions = JSON.parse((await s.cli(["sessions", "--json"])).stdout) as { id: number; created_by: string }[];
  const id = sessions.find((x) => x.created_by === "killed")?.id;
  expect((await s.cli(["kill", String(id)])).code).toBe(0);
  await chat.line("after the kill");
  chat.proc.stdin.end();
  expect(await chat.proc.exited).toBe(0);
  expect(await chat.stdout).toBe("ok\nok\n");
  expect(await chat.stderr).toContain(`session ${id} is gone; continuing your latest conversation with crab`);
  const files = s.sessionFiles("crab_killed_");
  expect(files).toHaveLength(1);
  expect(files[0].messages.map((m) => m.content)).toEqual(["before the kill", "ok", "after the kill", "ok"]);
});

test("no daemon: exit 2 with the hint before reading anything", async () => {
  const home = `${s.daemon.home}-absent`;
  const r = await runCli(["chat"], { home, stdin: "hello\n" });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("is the daemon running? try crabtalk start");
});

test("ask_user round trip through the real daemon: the picked label reaches the model", async () => {
  const questions = [
    {
      question: "Colour?",
      header: "Colour",
      options: [
        { label: "red", description: "" },
        { label: "blue", description: "" },
      ],
    },
  ];
  s.fake.script({ toolCalls: [{ id: "ask1", name: "ask_user", arguments: JSON.stringify({ questions }) }] }, { text: "blue it is" });
  const r = await s.cli(["chat", "--sender", "asked"], "ask me\n2\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("blue it is\n");
  expect(r.stderr).toContain("[Colour] Colour?");
  const tool = s.sessionFiles("crab_asked_")[0].messages.find((m) => m.role === "tool");
  expect(tool).toMatchObject({ tool_call_id: "ask1", content: JSON.stringify({ "Colour?": "blue" }) });
  expect(s.lastChatBody()).toContain(JSON.stringify(JSON.stringify({ "Colour?": "blue" })).slice(1, -1));
});

describe("ask_user", () => {
  const colour: Question = {
    question: "Which colour?",
    header: "Colour",
    options: [{ label: "red" }, { label: "blue", description: "like the sea" }, { label: "green" }],
  };
  const sizes: Question = {
    question: "Which sizes?",
    header: "Sizes",
    multiSelect: true,
    options: [{ label: "S" }, { label: "M" }, { label: "L" }],
  };

  test("questions are shown with numbered options; the answer goes back with ReplyToAsk", async () => {
    const stub = startAskingDaemon([colour, sizes]);
    try {
      const r = await runCli(["chat"], { home: stub.home, stdin: "pick for me\n9\n1,2\n2\n1, 3\n" });
      expect(r.code).toBe(0);
      const reply = { "Which colour?": "blue", "Which sizes?": "S, L" };
      expect(stub.replies.map((c) => JSON.parse(c))).toEqual([reply]);
      expect(r.stdout).toBe(`got ${JSON.stringify(reply)}\n`);
      expect(r.stderr).toContain("[Colour] Which colour?");
      expect(r.stderr).toContain("  2. blue — like the sea");
      expect(r.stderr).toContain("options are numbered 1 to 3");
      expect(r.stderr).toContain("pick one option");
      expect(r.stderr).toContain("pick one or more numbers");
      expect(stub.streams.map((x) => x.content)).toEqual(["pick for me"]);
    } finally {
      stub.stop();
      cleanup(stub.home);
    }
  });

  test("free text is an answer too; the next message goes to the session from start", async () => {
    const stub = startAskingDaemon([colour]);
    try {
      const r = await runCli(["chat"], { home: stub.home, stdin: "first\nsomething purple\nsecond\nteal\n" });
      expect(r.code).toBe(0);
      expect(stub.replies.map((c) => JSON.parse(c))).toEqual([{ "Which colour?": "something purple" }, { "Which colour?": "teal" }]);
      expect(stub.streams.map((x) => x.session)).toEqual([undefined, 7n]);
    } finally {
      stub.stop();
      cleanup(stub.home);
    }
  });

  test("input ending before an answer declines the question instead of leaving it pending", async () => {
    const stub = startAskingDaemon([colour]);
    try {
      const r = await runCli(["chat"], { home: stub.home, stdin: "ask me\n" });
      expect(r.code).toBe(0);
      expect(stub.replies.map((c) => JSON.parse(c))).toEqual([{ "Which colour?": "(no answer: the user did not answer)" }]);
      expect(r.stdout).toBe("");
    } finally {
      stub.stop();
      cleanup(stub.home);
    }
  });
});

/** `crabtalk chat` with a pipe the test keeps writing lines into. */
function spawnChat(args: string[]) {
  const proc = Bun.spawn([process.execPath, MAIN, "chat", ...args], {
    env: { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  return {
    proc,
    stdout: new Response(proc.stdout).text(),
    stderr: new Response(proc.stderr).text(),
    async line(text: string) {
      proc.stdin.write(`${text}\n`);
      await proc.stdin.flush();
    },
  };
}

async function until(check: () => boolean | undefined, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await Bun.sleep(20);
  }
}
