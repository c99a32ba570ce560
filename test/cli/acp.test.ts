// `crabtalk acp` (docs/editors.md) driven by the ACP library's own client,
// against a real daemon on a fake OpenAI provider.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { PROTOCOL_VERSION, RequestError, type SessionNotification, type SessionUpdate } from "@agentclientprotocol/sdk";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onlyJsonRpc, startAcp, startRawAcp, type AcpProcess } from "../support/acp-client.ts";
import { runCli } from "../support/cli.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { providerConfig, useLlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";

const t = useLlmDaemon("openai");
setDefaultTimeout(30_000);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-acp-"));
  dirs.push(dir);
  return dir;
}

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: "bash", arguments: JSON.stringify({ command }) }] });

async function ready(args: string[] = []): Promise<AcpProcess> {
  const acp = startAcp(t.env.daemon.home, args);
  const init = await acp.connection.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
  return acp;
}

async function newSession(acp: AcpProcess, cwd = scratch()): Promise<string> {
  const { sessionId } = await acp.connection.agent.request("session/new", { cwd, mcpServers: [] });
  return sessionId;
}

function updatesOf(acp: AcpProcess, sessionId: string, kind?: SessionUpdate["sessionUpdate"]): SessionUpdate[] {
  return acp.updates.filter((n: SessionNotification) => n.sessionId === sessionId && (!kind || n.update.sessionUpdate === kind)).map((n) => n.update);
}

function text(updates: SessionUpdate[]): string {
  return updates.map((u) => ("content" in u && u.content && !Array.isArray(u.content) && u.content.type === "text" ? u.content.text : "")).join("");
}

/** The content of every tool message in the fake's latest chat request. */
function toolMessages(): string[] {
  const body = t.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body;
  return body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content);
}

test("initialize answers version 1 with load, embedded context and no auth", async () => {
  const acp = startAcp(t.env.daemon.home);
  try {
    const init = await acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    expect(init).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true, image: false }, sessionCapabilities: { list: {} } },
      authMethods: [],
    });
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("a prompt's streamed text arrives as agent_message_chunks and ends with end_turn", async () => {
  const acp = await ready();
  try {
    const sessionId = await newSession(acp);
    t.env.fake.script({ thinking: "pondering", text: "Hello from the fake model, in several words." });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(res.stopReason).toBe("end_turn");
    const chunks = updatesOf(acp, sessionId, "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(1);
    expect(text(chunks)).toBe("Hello from the fake model, in several words.");
    expect(text(updatesOf(acp, sessionId, "agent_thought_chunk"))).toBe("pondering");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("an embedded resource reaches the model with its URI", async () => {
  const acp = await ready();
  try {
    const sessionId = await newSession(acp);
    const res = await acp.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "review this" },
        { type: "resource", resource: { uri: "file:///src/a.ts", text: "const a = 1;", mimeType: "text/x-typescript" } },
      ],
    });
    expect(res.stopReason).toBe("end_turn");
    const body = t.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body;
    const last = body.messages.filter((m: { role: string }) => m.role === "user").at(-1).content as string;
    expect(last).toContain("review this");
    expect(last).toContain("file:///src/a.ts");
    expect(last).toContain("const a = 1;");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("a bash call is a tool_call (execute, in_progress) then a tool_call_update with its output", async () => {
  const acp = await ready();
  try {
    const cwd = scratch();
    const sessionId = await newSession(acp, cwd);
    t.env.fake.script(bash("b1", "echo from-bash\necho second line"), { text: "done" });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] });
    expect(res.stopReason).toBe("end_turn");
    const [call] = updatesOf(acp, sessionId, "tool_call");
    expect(call).toMatchObject({
      sessionUpdate: "tool_call",
      title: "echo from-bash",
      kind: "execute",
      status: "in_progress",
      rawInput: { command: "echo from-bash\necho second line" },
    });
    const [result] = updatesOf(acp, sessionId, "tool_call_update");
    expect(result).toMatchObject({ toolCallId: (call as { toolCallId: string }).toolCallId, status: "completed" });
    expect((result as { content: unknown }).content).toEqual([{ type: "content", content: { type: "text", text: "from-bash\nsecond line\n" } }]);
    expect(text(updatesOf(acp, sessionId, "agent_message_chunk"))).toBe("done");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("results of one step go to their own calls by id when the second call finishes first", async () => {
  const acp = await ready();
  try {
    const cwd = scratch();
    const sessionId = await newSession(acp, cwd);
    // The first call waits for a file this test writes once the second call's result has reached the editor: it always finishes last.
    const calls = [
      { id: "slow-1", name: "bash", arguments: JSON.stringify({ command: "until [ -f go ]; do sleep 0.02; done; echo slow" }) },
      { id: "fast-2", name: "bash", arguments: JSON.stringify({ command: "echo fast" }) },
    ];
    t.env.fake.script({ toolCalls: calls }, { text: "both done" });
    const prompt = acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run both" }] });
    await until(() => updatesOf(acp, sessionId, "tool_call_update").length === 1, { what: "the fast call's result" });
    writeFileSync(join(cwd, "go"), "");
    const res = await prompt;
    expect(res.stopReason).toBe("end_turn");
    const started = updatesOf(acp, sessionId, "tool_call") as { toolCallId: string; title: string }[];
    expect(started.map((c) => c.title)).toEqual(["until [ -f go ]; do sleep 0.02; done; echo slow", "echo fast"]);
    const ended = updatesOf(acp, sessionId, "tool_call_update") as { toolCallId: string; content: { content: { text: string } }[] }[];
    // In finishing order: the fast call's result first, each on its own call.
    expect(ended.map((u) => [u.toolCallId, u.content[0].content.text])).toEqual([
      [started[1].toolCallId, "fast\n"],
      [started[0].toolCallId, "slow\n"],
    ]);
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("session/load replays past tool calls with their final status and output", async () => {
  let sessionId: string;
  const cwd = scratch();
  const first = await ready();
  try {
    sessionId = await newSession(first, cwd);
    t.env.fake.script(
      {
        text: "let me look",
        toolCalls: [
          { id: "p1", name: "bash", arguments: JSON.stringify({ command: "echo past output" }) },
          { id: "p2", name: "no_such_tool", arguments: "{}" },
        ],
      },
      { text: "looked" },
    );
    expect((await first.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look" }] })).stopReason).toBe("end_turn");
  } finally {
    onlyJsonRpc((await first.close()).stdout);
  }
  const second = await ready();
  try {
    await second.connection.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    const replayed = updatesOf(second, sessionId).filter((u) => u.sessionUpdate !== "available_commands_update");
    expect(replayed.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "agent_message_chunk", "tool_call", "tool_call", "agent_message_chunk"]);
    const [bashCall, failedCall] = replayed.filter((u) => u.sessionUpdate === "tool_call");
    expect(bashCall).toMatchObject({
      title: "echo past output",
      kind: "execute",
      status: "completed",
      rawInput: { command: "echo past output" },
      content: [{ type: "content", content: { type: "text", text: "past output\n" } }],
    });
    expect(failedCall).toMatchObject({
      title: expect.stringContaining("no_such_tool"),
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: "tool not available: no_such_tool" } }],
    });
    expect((bashCall as { toolCallId: string }).toolCallId).not.toBe((failedCall as { toolCallId: string }).toolCallId);
  } finally {
    onlyJsonRpc((await second.close()).stdout);
  }
});

async function guardedAgent(): Promise<void> {
  if ((await t.client.listAgents()).some((a) => a.name === "guarded")) return;
  await t.client.createAgent("guarded", JSON.stringify({ approve: ["bash"] }));
}

test("approve = [bash]: session/request_permission; allow_once runs the command", async () => {
  await guardedAgent();
  const acp = await ready(["--agent", "guarded"]);
  try {
    const cwd = scratch();
    const sessionId = await newSession(acp, cwd);
    acp.answer = () => ({ outcome: { outcome: "selected", optionId: "allow_once" } });
    t.env.fake.script(bash("a1", "echo yes > allowed.txt"), { text: "written" });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write it" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(acp.permissions).toHaveLength(1);
    const [asked] = acp.permissions;
    expect(asked.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["allow_once", "allow_once"],
      ["allow_always", "allow_always"],
      ["reject_once", "reject_once"],
    ]);
    const [call] = updatesOf(acp, sessionId, "tool_call");
    expect(asked.toolCall.toolCallId).toBe((call as { toolCallId: string }).toolCallId);
    expect(readFileSync(join(cwd, "allowed.txt"), "utf8")).toBe("yes\n");
    expect(updatesOf(acp, sessionId, "tool_call_update")).toMatchObject([{ status: "completed" }]);
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("approve = [bash]: reject_once does not run it and the model is told", async () => {
  await guardedAgent();
  const acp = await ready(["--agent", "guarded"]);
  try {
    const cwd = scratch();
    const sessionId = await newSession(acp, cwd);
    acp.answer = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    t.env.fake.script(bash("r1", "touch refused"), { text: "not done" });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "touch it" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(acp.permissions).toHaveLength(1);
    expect(existsSync(join(cwd, "refused"))).toBe(false);
    expect(toolMessages()[0]).toStartWith("bash was not run: the user said no");
    expect(updatesOf(acp, sessionId, "tool_call_update")).toMatchObject([{ status: "failed" }]);
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("session/cancel during a stalled answer: cancelled within a second, the provider request aborted", async () => {
  const acp = await ready();
  try {
    const sessionId = await newSession(acp);
    const abandonedBefore = t.env.fake.abandoned;
    t.env.fake.script({ text: "partial answer that stalls", stallAfterChunks: 2 });
    const prompt = acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stall" }] });
    await until(() => updatesOf(acp, sessionId, "agent_message_chunk").length > 0, { what: "the first chunk" });
    const at = performance.now();
    await acp.connection.agent.notify("session/cancel", { sessionId });
    const res = await prompt;
    const tookMs = performance.now() - at;
    expect(res.stopReason).toBe("cancelled");
    expect(tookMs).toBeLessThan(1000);
    await until(() => t.env.fake.abandoned > abandonedBefore, { what: "the fake to see its request aborted" });
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("session/load replays the conversation; crabtalk history shows it and send --session lands in it", async () => {
  let sessionId: string;
  const first = await ready();
  const cwd = scratch();
  try {
    sessionId = await newSession(first, cwd);
    t.env.fake.script({ text: "first answer" });
    await first.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "first question" }] });
    // The background title renames the file: wait for it, so the file found below keeps its name.
    await until(async () => (await t.client.listConversations("crab", sessionId))[0]?.title, { what: "the conversation's title" });
  } finally {
    onlyJsonRpc((await first.close()).stdout);
  }
  // A new ACP process, as after the editor restarted.
  const second = await ready();
  try {
    await second.connection.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(updatesOf(second, sessionId).filter((u) => u.sessionUpdate !== "available_commands_update")).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "first question" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "first answer" } },
    ]);
    const listed = await second.connection.agent.request("session/list", { cwd });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);

    // The same conversation, seen and continued by the rest of the CLI.
    const [file] = await t.client.listConversations("crab", sessionId);
    const history = await runCli(["history", file.filePath], { home: t.env.daemon.home });
    expect(history.code).toBe(0);
    expect(history.stdout).toContain("first question");
    expect(history.stdout).toContain("first answer");
    const open = (await t.client.sessions()).find((s) => s.createdBy === sessionId)!;
    t.env.fake.script({ text: "answer to the CLI" });
    const sent = await runCli(["send", "--session", String(open.id), "from the command line"], { home: t.env.daemon.home });
    expect(sent.code).toBe(0);
    t.env.fake.script({ text: "third answer" });
    const res = await second.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "third question" }] });
    expect(res.stopReason).toBe("end_turn");
    const after = await t.client.getConversationHistory(file.filePath, { offset: 0, limit: 50 });
    expect(after.messages.map((m) => m.content)).toEqual([
      "first question",
      "first answer",
      "from the command line",
      "answer to the CLI",
      "third question",
      "third answer",
    ]);
  } finally {
    onlyJsonRpc((await second.close()).stdout);
  }
});

test("malformed line, unknown method, unknown session and relative cwd get the spec's errors; the process keeps serving", async () => {
  const acp = startRawAcp(t.env.daemon.home);
  try {
    acp.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}');
    expect((await acp.answer(1)).result).toMatchObject({ protocolVersion: 1 });
    acp.send("{this is not json");
    expect((await acp.answer(null)).error).toMatchObject({ code: -32700 });
    acp.send('{"jsonrpc":"2.0","id":2,"method":"no/such_method","params":{}}');
    expect((await acp.answer(2)).error).toMatchObject({ code: -32601 });
    acp.send('{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"acp-000000000000000000000000","prompt":[{"type":"text","text":"hi"}]}}');
    expect((await acp.answer(3)).error).toMatchObject({ code: -32002, data: { sessionId: "acp-000000000000000000000000" } });
    acp.send('{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}');
    expect((await acp.answer(4)).error).toMatchObject({ code: -32602 });
    acp.send('{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"mcpServers":[]}}');
    expect((await acp.answer(5)).error).toMatchObject({ code: -32602 });
    // Still serving.
    acp.send(`{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":${JSON.stringify(scratch())},"mcpServers":[]}}`);
    expect((await acp.answer(6)).result).toMatchObject({ sessionId: expect.stringMatching(/^acp-[0-9a-f]{24}$/) });
  } finally {
    const { code, stdout } = await acp.close();
    expect(code).toBe(0);
    onlyJsonRpc(stdout);
  }
});

test("a failed run answers the prompt with a JSON-RPC error carrying the daemon's message", async () => {
  const acp = await ready();
  try {
    const sessionId = await newSession(acp);
    t.env.fake.script({ error: { status: 400, message: "the fake provider refuses this request" } });
    const failed = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "fail" }] }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(RequestError);
    expect((failed as RequestError).code).toBe(-32603);
    expect((failed as RequestError).message).toContain("the fake provider refuses this request");
    // The session goes on.
    t.env.fake.script({ text: "back again" });
    expect((await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] })).stopReason).toBe("end_turn");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("with no daemon running, acp starts one (saying so on stderr) and stdout stays JSON-RPC", async () => {
  const home = join(scratch(), "home");
  mkdirSync(home);
  writeFileSync(join(home, "config.toml"), providerConfig("openai", t.env.fake));
  const acp = startAcp(home);
  try {
    await acp.connection.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const sessionId = await newSession(acp);
    t.env.fake.script({ text: "from a daemon acp started" });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(text(updatesOf(acp, sessionId, "agent_message_chunk"))).toBe("from a daemon acp started");
  } finally {
    const { stdout, stderr } = await acp.close();
    expect((await runCli(["stop"], { home })).code).toBe(0);
    onlyJsonRpc(stdout);
    expect(stderr).toContain("no daemon answers: starting it");
    expect(stderr).toContain("crabtalk daemon started");
  }
});

test("ask_user: a question with options becomes a permission request of those options; one without is answered at once", async () => {
  const acp = await ready();
  try {
    const sessionId = await newSession(acp);
    acp.answer = (req) => ({ outcome: { outcome: "selected", optionId: req.options.find((o) => o.name === "blue")!.optionId } });
    const questions = [
      {
        question: "Colour?",
        header: "Colour",
        options: [
          { label: "red", description: "" },
          { label: "blue", description: "" },
        ],
      },
      { question: "Why?", header: "Reason", options: [] },
    ];
    t.env.fake.script({ toolCalls: [{ id: "q1", name: "ask_user", arguments: JSON.stringify({ questions }) }] }, { text: "blue it is" });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "ask me" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(acp.permissions).toHaveLength(1);
    expect(acp.permissions[0].options.map((o) => o.name)).toEqual(["red", "blue"]);
    expect(acp.permissions[0].toolCall.title).toBe("Colour?");
    expect(toolMessages()[0]).toBe(JSON.stringify({ "Colour?": "blue", "Why?": "(no answer: no answer from the editor)" }));
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("a run ended by the iteration limit stops with max_turn_requests", async () => {
  if (!(await t.client.listAgents()).some((a) => a.name === "short")) await t.client.createAgent("short", JSON.stringify({ max_iterations: 1 }));
  const acp = await ready(["--agent", "short"]);
  try {
    const sessionId = await newSession(acp);
    t.env.fake.script(bash("m1", "true"));
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "loop" }] });
    expect(res.stopReason).toBe("max_turn_requests");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("agents are modes, skills are commands, and /skill runs that skill", async () => {
  await guardedAgent();
  mkdirSync(join(t.env.daemon.home, "local/skills/greet"), { recursive: true });
  writeFileSync(join(t.env.daemon.home, "local/skills/greet/SKILL.md"), "---\nname: greet\ndescription: says hello\n---\nGreet warmly.\n");
  const acp = await ready();
  try {
    const { sessionId, modes } = await acp.connection.agent.request("session/new", { cwd: scratch(), mcpServers: [] });
    expect(modes?.currentModeId).toBe("crab");
    expect(modes?.availableModes.map((m) => m.id)).toContain("guarded");
    const [commands] = await until(
      () => updatesOf(acp, sessionId, "available_commands_update").length > 0 && updatesOf(acp, sessionId, "available_commands_update"),
      {
        what: "the commands of the session",
      },
    );
    expect((commands as { availableCommands: { name: string }[] }).availableCommands.map((c) => c.name)).toContain("greet");

    t.env.fake.script({ text: "hello there" });
    await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/greet bob" }] });
    expect(JSON.stringify(t.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body)).toContain("Greet warmly.");

    const unknown = await acp.connection.agent.request("session/set_mode", { sessionId, modeId: "nobody" }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((unknown as RequestError).code).toBe(-32602);
    await acp.connection.agent.request("session/set_mode", { sessionId, modeId: "guarded" });
    acp.answer = () => ({ outcome: { outcome: "cancelled" } });
    t.env.fake.script(bash("g1", "true"), { text: "refused" });
    await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "as guarded" }] });
    // Guarded asks before bash: the prompt now runs as that agent; a cancelled answer refuses.
    expect(acp.permissions).toHaveLength(1);
    expect(toolMessages()[0]).toStartWith("bash was not run: the user said no");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("session/cancel while a permission request is pending: the prompt ends cancelled and nothing runs", async () => {
  await guardedAgent();
  const acp = await ready(["--agent", "guarded"]);
  try {
    const cwd = scratch();
    const sessionId = await newSession(acp, cwd);
    // The editor never answers: only the cancel can end the question.
    acp.answer = () => new Promise(() => {});
    t.env.fake.script(bash("c1", "touch never"));
    const prompt = acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await until(() => acp.permissions.length === 1, { what: "the permission request" });
    const at = performance.now();
    await acp.connection.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(performance.now() - at).toBeLessThan(1000);
    expect(existsSync(join(cwd, "never"))).toBe(false);
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});

test("the editor closing stdin mid-answer ends the process and cancels the run", async () => {
  const acp = await ready();
  const sessionId = await newSession(acp);
  const abandonedBefore = t.env.fake.abandoned;
  t.env.fake.script({ text: "an answer nobody will read", stallAfterChunks: 2 });
  void acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stall" }] }).catch(() => {});
  await until(() => updatesOf(acp, sessionId, "agent_message_chunk").length > 0, { what: "the first chunk" });
  const { code, stdout, stderr } = await acp.close();
  expect(code).toBe(0);
  onlyJsonRpc(stdout);
  expect(stderr).toContain("the editor closed the connection");
  await until(() => t.env.fake.abandoned > abandonedBefore, { what: "the fake to see its request aborted" });
  const open = (await t.client.sessions()).find((s) => s.createdBy === sessionId);
  expect(open?.active).toBe(false);
});
