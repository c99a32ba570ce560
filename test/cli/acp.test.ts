// `crabtalk acp` (docs/editors.md) driven by the ACP library's own client,
// against a real daemon on a fake OpenAI provider.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { PROTOCOL_VERSION, RequestError, type SessionNotification, type SessionUpdate } from "@agentclientprotocol/sdk";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onlyJsonRpc, startAcp, type AcpProcess } from "../support/acp-client.ts";
import { runCli } from "../support/cli.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
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
    expect(call).toMatchObject({ sessionUpdate: "tool_call", title: "echo from-bash", kind: "execute", status: "in_progress", rawInput: { command: "echo from-bash\necho second line" } });
    const [result] = updatesOf(acp, sessionId, "tool_call_update");
    expect(result).toMatchObject({ toolCallId: (call as { toolCallId: string }).toolCallId, status: "completed" });
    expect((result as { content: unknown }).content).toEqual([{ type: "content", content: { type: "text", text: "from-bash\nsecond line\n" } }]);
    expect(text(updatesOf(acp, sessionId, "agent_message_chunk"))).toBe("done");
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});
