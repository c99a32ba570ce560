// The editor's MCP servers through `crabtalk acp` (docs/editors.md#mcp-servers-from-the-editor):
// the real everything server, over stdio and over HTTP, attached with
// session/new, called by the model through the `mcp` tool, and gone once the
// ACP process ends.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { PROTOCOL_VERSION, type RequestError, type McpServer, type SessionUpdate } from "@agentclientprotocol/sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onlyJsonRpc, startAcp, type AcpProcess } from "../support/acp-client.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";
import { EVERYTHING_ENTRY, pidsWith } from "../runtime/mcp/support.ts";

const t = useLlmDaemon("openai");
setDefaultTimeout(60_000);

const cwd = mkdtempSync(join(tmpdir(), "crabtalk-acp-mcp-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const SECRET = "editor-secret-value-0123456789";

async function ready(): Promise<AcpProcess> {
  const acp = startAcp(t.env.daemon.home);
  const init = await acp.connection.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
  return acp;
}

const mcpCall = (id: string, name: string, args: object) => ({ id, name: "mcp", arguments: JSON.stringify({ name, args: JSON.stringify(args) }) });

function updates(acp: AcpProcess, sessionId: string, kind: SessionUpdate["sessionUpdate"]): SessionUpdate[] {
  return acp.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind).map((n) => n.update);
}

function outputs(acp: AcpProcess, sessionId: string): string[] {
  return (updates(acp, sessionId, "tool_call_update") as { content?: { content: { text: string } }[] }[]).map((u) => u.content?.[0]?.content.text ?? "");
}

function lastChatRequest(): string {
  return JSON.stringify(t.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body);
}

test("a stdio server from session/new: the model calls its tools, its env stays secret, and it ends with the ACP process", async () => {
  const marker = `crabtalk-acp-editor-mcp-${process.pid}`;
  const acp = await ready();
  let closed = false;
  try {
    const server: McpServer = {
      name: "editor-tools",
      command: process.execPath,
      args: [EVERYTHING_ENTRY, "stdio", marker],
      env: [{ name: "EDITOR_SECRET", value: SECRET }],
    };
    const { sessionId } = await acp.connection.agent.request("session/new", { cwd, mcpServers: [server] });
    expect(pidsWith(marker)).toHaveLength(1);

    t.env.fake.script(
      { toolCalls: [mcpCall("e1", "echo", { message: "from the editor's server" })] },
      { toolCalls: [mcpCall("e2", "get-env", {})] },
      { text: "used it" },
    );
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "use the editor's tools" }] });
    expect(res.stopReason).toBe("end_turn");
    // The model was told of the server, and both results came back.
    expect(lastChatRequest()).toContain("MCP servers from the user's editor: editor-tools");
    const [echoed, env] = outputs(acp, sessionId);
    expect(echoed).toBe("Echo: from the editor's server");
    expect(env).toContain("EDITOR_SECRET");
    expect(env).toContain("<redacted>");
    expect(env).not.toContain(SECRET);
    expect(lastChatRequest()).not.toContain(SECRET);

    // Another session of the same process does not get them.
    const other = await acp.connection.agent.request("session/new", { cwd, mcpServers: [] });
    t.env.fake.script({ toolCalls: [mcpCall("o1", "echo", { message: "not mine" })] }, { text: "none" });
    await acp.connection.agent.request("session/prompt", { sessionId: other.sessionId, prompt: [{ type: "text", text: "try" }] });
    expect(outputs(acp, other.sessionId)).toEqual(["no tools found"]);

    const { stdout, stderr } = await acp.close();
    closed = true;
    onlyJsonRpc(stdout);
    expect(stderr).not.toContain(SECRET);
    await until(() => pidsWith(marker).length === 0, { what: "the editor's MCP server process to end after the ACP process" });
    const log = await until(
      async () => {
        const text = await Bun.file(join(t.env.daemon.home, "logs/daemon.log"))
          .text()
          .catch(() => "");
        return text.includes("detached MCP servers") && text;
      },
      { what: "the daemon's log to say the servers were detached" },
    );
    expect(log).toContain("editor-tools");
    expect(log).not.toContain(SECRET);
  } finally {
    if (!closed) onlyJsonRpc((await acp.close()).stdout);
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

test("an HTTP server from session/new, with headers, is called over HTTP", async () => {
  const port = await freePort();
  const web = Bun.spawn([process.execPath, EVERYTHING_ENTRY, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const acp = await ready();
  try {
    let said = "";
    const reader = web.stderr.getReader();
    await until(
      async () => {
        const { value } = await reader.read();
        said += new TextDecoder().decode(value ?? new Uint8Array());
        return said.includes("listening on port");
      },
      { what: "the HTTP MCP server to listen" },
    );
    reader.releaseLock();
    const server: McpServer = { type: "http", name: "editor-web", url: `http://127.0.0.1:${port}/mcp`, headers: [{ name: "X-Editor-Token", value: SECRET }] };
    const { sessionId } = await acp.connection.agent.request("session/new", { cwd, mcpServers: [server] });
    t.env.fake.script({ toolCalls: [mcpCall("h1", "echo", { message: "over http" })] }, { text: "done" });
    expect((await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] })).stopReason).toBe("end_turn");
    expect(outputs(acp, sessionId)).toEqual(["Echo: over http"]);
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
    web.kill();
    await web.exited;
  }
});

test("bad MCP server lists are invalid params and create no session", async () => {
  const acp = await ready();
  try {
    const refused = async (mcpServers: McpServer[]) =>
      acp.connection.agent.request("session/new", { cwd, mcpServers }).then(
        () => undefined,
        (err: unknown) => err as RequestError,
      );
    const sse = await refused([{ type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] }]);
    expect(sse?.code).toBe(-32602);
    expect(sse?.message).toContain("SSE is not supported");
    const twice = await refused([
      { name: "dup", command: "true", args: [], env: [] },
      { name: "dup", command: "true", args: [], env: [] },
    ]);
    expect(twice?.code).toBe(-32602);
    expect(twice?.message).toContain("MCP server 'dup' is attached twice");
    const notUrl = await refused([{ type: "http", name: "web", url: "ftp://example.com/mcp", headers: [{ name: "Authorization", value: SECRET }] }]);
    expect(notUrl?.code).toBe(-32602);
    expect(notUrl?.message).toContain("url must be http or https");
    expect(notUrl?.message).not.toContain(SECRET);
    // Nothing was kept: the process still serves, and a good session works.
    const { sessionId } = await acp.connection.agent.request("session/new", { cwd, mcpServers: [] });
    expect(sessionId).toMatch(/^acp-/);
  } finally {
    onlyJsonRpc((await acp.close()).stdout);
  }
});
