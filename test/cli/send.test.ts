// `crabtalk send` against a real daemon whose provider is a fake OpenAI server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup, MAIN, tempHome } from "../support/daemon.ts";
import { startAskingDaemon } from "../support/asking-daemon.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;

beforeAll(async () => {
  s = await startFakeSetup();
});

afterAll(async () => {
  await s.stop();
});

type Event = { type: string; [key: string]: unknown };
const events = (stdout: string): Event[] =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

test("send hello prints the scripted answer and exits 0", async () => {
  s.fake.script({ text: "Hello from the fake model." });
  const r = await s.cli(["send", "hello"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Hello from the fake model.\n");
  expect(s.lastUserMessage()).toBe("hello");
});

test("--new starts the next seq for the same agent and sender", async () => {
  const first = s.sessionFiles("crab_user_");
  expect(first.map((f) => f.name)).toEqual([expect.stringMatching(/^crab_user_1(_.+)?\.jsonl$/)]);
  const r = await s.cli(["send", "--new", "a fresh start"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("ok\n");
  const files = s.sessionFiles("crab_user_");
  expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^crab_user_1(_.+)?\.jsonl$/), expect.stringMatching(/^crab_user_2(_.+)?\.jsonl$/)]);
  expect(files[1].messages).toEqual([
    { role: "user", content: "a fresh start" },
    { role: "assistant", content: "ok" },
  ]);
  // The first conversation was left as it was.
  expect(files[0].messages).toEqual(first[0].messages);
});

test("--json prints every event in protocol order: start first, end last", async () => {
  s.fake.script({ thinking: "let me think", text: "two words" });
  const r = await s.cli(["send", "--json", "--sender", "json", "hi"]);
  expect(r.code).toBe(0);
  const evs = events(r.stdout);
  expect(evs[0]).toEqual({ type: "start", agent: "crab", session: expect.any(Number) });
  expect(evs.at(-1)).toMatchObject({
    type: "end",
    agent: "crab",
    error: "",
    provider: "fake",
    model: "fake-model",
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  expect(evs.filter((e) => e.type === "start" || e.type === "end")).toHaveLength(2);
  const middle = evs.slice(1, -1);
  expect(new Set(middle.map((e) => e.type))).toEqual(new Set(["thinking", "chunk"]));
  expect(
    middle
      .filter((e) => e.type === "chunk")
      .map((e) => e.content)
      .join(""),
  ).toBe("two words");
  expect(
    middle
      .filter((e) => e.type === "thinking")
      .map((e) => e.content)
      .join(""),
  ).toBe("let me think");
});

test("plain mode does not print thinking", async () => {
  s.fake.script({ thinking: "secret musings", text: "visible answer" });
  const r = await s.cli(["send", "--sender", "json", "again"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("visible answer\n");
  expect(r.stderr).toBe("");
});

test("a second send resumes the same session file", async () => {
  s.fake.script({ text: "first answer" });
  const one = await s.cli(["send", "--json", "--sender", "alice", "first question"]);
  s.fake.script({ text: "second answer" });
  const two = await s.cli(["send", "--json", "--sender", "alice", "second question"]);
  expect([one.code, two.code]).toEqual([0, 0]);
  expect(events(two.stdout)[0].session).toBe(events(one.stdout)[0].session);
  const files = s.sessionFiles("crab_alice_");
  expect(files).toHaveLength(1);
  expect(files[0].meta).toMatchObject({ agent: "crab", created_by: "alice" });
  expect(files[0].messages).toEqual([
    { role: "user", content: "first question" },
    { role: "assistant", content: "first answer" },
    { role: "user", content: "second question" },
    { role: "assistant", content: "second answer" },
  ]);
  // The model saw the whole conversation the second time.
  expect(s.lastChatBody()).toContain("first answer");
});

test("--session sends to that open session; an unknown one is a 404 on stderr", async () => {
  const start = events((await s.cli(["send", "--json", "--sender", "sess", "open one"])).stdout)[0];
  const r = await s.cli(["send", "--json", "--session", String(start.session), "into it"]);
  expect(r.code).toBe(0);
  expect(events(r.stdout)[0].session).toBe(start.session);
  expect(s.sessionFiles("crab_sess_")[0].messages).toHaveLength(4);

  const missing = await s.cli(["send", "--session", "99999", "nobody home"]);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toBe("");
  expect(missing.stderr).toBe("crabtalk: session 99999 not found\n");
});

test("the message is read from stdin when none is given or it is -", async () => {
  const piped = await s.cli(["send", "--sender", "stdin"], "from a pipe\n");
  expect(piped.code).toBe(0);
  expect(s.lastUserMessage()).toBe("from a pipe");
  const dash = await s.cli(["send", "--sender", "stdin", "-"], "multi\nline message\n");
  expect(dash.code).toBe(0);
  expect(s.lastUserMessage()).toBe("multi\nline message");
  const empty = await s.cli(["send", "--sender", "stdin"], "  \n");
  expect(empty.code).toBe(1);
  expect(empty.stderr).toContain("empty message");
});

test("a message and piped text are both sent: the message, a blank line, the piped text", async () => {
  const diff = "diff --git a/x b/x\n-old\n+new\n";
  const both = await s.cli(["send", "--sender", "both", "review this diff"], diff);
  expect(both.code).toBe(0);
  expect(s.lastUserMessage()).toBe("review this diff\n\ndiff --git a/x b/x\n-old\n+new");
  // The full CLI (here: after `--`) does the same.
  const full = await s.cli(["send", "--sender", "both", "--", "and this one"], "piped too\n");
  expect(full.code).toBe(0);
  expect(s.lastUserMessage()).toBe("and this one\n\npiped too");
  // Blank piped text adds nothing; an empty message with piped text is the piped text.
  expect((await s.cli(["send", "--sender", "both", "just this"], " \n\n")).code).toBe(0);
  expect(s.lastUserMessage()).toBe("just this");
  expect((await s.cli(["send", "--sender", "both", ""], "only piped\n")).code).toBe(0);
  expect(s.lastUserMessage()).toBe("only piped");
});

test("an argument with standard input on /dev/null or closed sends the argument without waiting", async () => {
  // runCli without stdin gives /dev/null.
  expect((await s.cli(["send", "--sender", "nullin", "from /dev/null"])).code).toBe(0);
  expect(s.lastUserMessage()).toBe("from /dev/null");
  for (const args of [
    ["send", "--sender", "nullin", "stdin closed"],
    ["send", "--sender", "nullin", "--", "stdin closed, full CLI"],
  ]) {
    const proc = Bun.spawn(["bash", "-c", '"$@" <&-', "bash", process.execPath, MAIN, ...args], {
      env: { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(0);
    expect(s.lastUserMessage()).toBe(args.at(-1)!);
  }
});

test("an empty message with nothing piped is refused, as empty standard input is", async () => {
  const before = s.fake.requests.length;
  for (const args of [
    ["send", ""],
    ["send", "--", "  "],
  ]) {
    const r = await s.cli(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("crabtalk: empty message: give it as an argument or on standard input\n");
  }
  expect(s.fake.requests.length).toBe(before);
});

test("--cwd (default: the current directory) reaches the agent as its working directory", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "crabtalk-cwd-")));
  expect((await s.cli(["send", "--sender", "cwd", "--cwd", dir, "where am I"])).code).toBe(0);
  expect(s.lastChatBody()).toContain(`working_directory: ${dir}`);
  expect((await s.cli(["send", "--sender", "cwd", "and now"])).code).toBe(0);
  expect(s.lastChatBody()).toContain(`working_directory: ${process.cwd()}`);
  cleanup(dir);
});

test("tool calls: events in order with --json, nothing extra in plain mode when stderr is not a terminal", async () => {
  const calls = { toolCalls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls"}' }] };
  s.fake.script(calls, { text: "done" });
  const json = await s.cli(["send", "--json", "--sender", "tools", "list files"]);
  expect(json.code).toBe(0);
  const types = events(json.stdout).map((e) => e.type);
  expect(types[0]).toBe("start");
  expect(types.at(-1)).toBe("end");
  const at = (t: string) => types.indexOf(t);
  expect(at("tool_start")).toBeGreaterThan(0);
  expect(at("tool_result")).toBeGreaterThan(types.lastIndexOf("tool_start"));
  expect(at("tools_complete")).toBeGreaterThan(at("tool_result"));
  expect(types.lastIndexOf("chunk")).toBeGreaterThan(at("tools_complete"));
  const full = events(json.stdout)
    .filter((e) => e.type === "tool_start")
    .at(-1);
  expect(full).toEqual({ type: "tool_start", calls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls"}' }] });
  expect(events(json.stdout).find((e) => e.type === "tool_result")).toMatchObject({
    call_id: "call_1",
    duration_ms: expect.any(Number),
  });

  s.fake.script(calls, { text: "done again" });
  const plain = await s.cli(["send", "--sender", "tools", "once more"]);
  expect(plain.code).toBe(0);
  expect(plain.stdout).toBe("done again\n");
  expect(plain.stderr).toBe("");
});

test("a run that stops at max_iterations exits 0 with a note on stderr", async () => {
  const created = await s.cli(["agents", "create", "looper", "--max-iterations", "2"]);
  expect(created.code).toBe(0);
  const call = (id: string) => ({ toolCalls: [{ id, name: "bash", arguments: '{"command":"true"}' }] });
  s.fake.script(call("c1"), call("c2"));
  const r = await s.cli(["send", "--agent", "looper", "loop forever"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe("crabtalk: stopped at the agent's iteration limit\n");
  const files = s.sessionFiles("looper_user_");
  expect(files[0].messages.filter((m) => m.role === "tool")).toHaveLength(2);
});

test("ask_user through the real daemon without a terminal: exit 1 pointing to chat", async () => {
  const questions = [{ question: "Proceed?", header: "Confirm", options: [{ label: "yes", description: "" }] }];
  s.fake.script({ toolCalls: [{ id: "ask1", name: "ask_user", arguments: JSON.stringify({ questions }) }] });
  const r = await s.cli(["send", "--sender", "noterm", "may I?"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe("crabtalk: ask_user needs an interactive terminal: use crabtalk chat\n");
  // The question was declined, not left pending: the session is free for the next message at once.
  const next = await s.cli(["send", "--sender", "noterm", "never mind"]);
  expect(next.code).toBe(0);
  expect(next.stdout).toBe("ok\n");
});

test("a provider 401 exits 1 with the provider's error on stderr; the daemon keeps serving", async () => {
  s.fake.script({ error: { status: 401, message: "Incorrect API key provided" } });
  const r = await s.cli(["send", "--sender", "denied", "hello"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith("crabtalk: ");
  expect(r.stderr).toContain("401");
  expect(r.stderr).toContain("Incorrect API key provided");
  const after = await s.cli(["send", "--sender", "denied", "hello again"]);
  expect(after.code).toBe(0);
  expect(after.stdout).toBe("ok\n");
});

test("an unknown agent is refused before the run starts", async () => {
  const r = await s.cli(["send", "--agent", "nobody", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe("crabtalk: agent 'nobody' not registered\n");
  const json = await s.cli(["send", "--json", "--agent", "nobody", "hi"]);
  expect(json.code).toBe(1);
  expect(events(json.stdout)).toEqual([{ type: "error", code: 404, message: "agent 'nobody' not registered" }]);
});

test("--tcp reaches the daemon through the port file", async () => {
  for (const args of [
    ["--tcp", "send", "--sender", "tcp", "over tcp"],
    ["send", "--sender", "tcp", "--tcp", "again"],
  ]) {
    const r = await s.cli(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
  }
});

describe("without a daemon or a terminal", () => {
  test("no daemon: exit 2 and a hint to start one", async () => {
    const home = tempHome();
    const r = await runCli(["send", "hello"], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is the daemon running? try crabtalk start");
    cleanup(home);
  });

  test("ask_user with no terminal: exit 1 pointing to chat, and the question is not left pending", async () => {
    const stub = startAskingDaemon([{ question: "Proceed?", header: "Confirm", options: [{ label: "yes" }, { label: "no" }] }]);
    try {
      const r = await runCli(["send", "do it"], { home: stub.home });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe("crabtalk: ask_user needs an interactive terminal: use crabtalk chat\n");
      expect(stub.replies).toHaveLength(1);
      expect(JSON.parse(stub.replies[0])).toEqual({ "Proceed?": "(no answer: not at an interactive terminal)" });
    } finally {
      stub.stop();
      cleanup(stub.home);
    }
  });
});
