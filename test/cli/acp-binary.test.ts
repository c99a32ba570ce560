// The compiled binary (`bun run build`) serves ACP too: the SDK is bundled and
// nothing but JSON-RPC reaches stdout.
import { expect, test } from "bun:test";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onlyJsonRpc, startAcp } from "../support/acp-client.ts";
import { compiledBinary } from "../support/binary.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const t = useLlmDaemon("openai");

test("the compiled binary's acp streams an answer as agent_message_chunks", async () => {
  const binary = await compiledBinary();
  const cwd = mkdtempSync(join(tmpdir(), "crabtalk-acp-bin-"));
  const acp = startAcp(t.env.daemon.home, [], [binary]);
  try {
    await acp.connection.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await acp.connection.agent.request("session/new", { cwd, mcpServers: [] });
    t.env.fake.script({ text: "compiled and streaming" });
    const res = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(res.stopReason).toBe("end_turn");
    const chunks = acp.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk").map((n) => n.update);
    expect(chunks.map((u) => ("content" in u && !Array.isArray(u.content) && u.content?.type === "text" ? u.content.text : "")).join("")).toBe(
      "compiled and streaming",
    );
  } finally {
    const { code, stdout } = await acp.close();
    onlyJsonRpc(stdout);
    expect(code).toBe(0);
    rmSync(cwd, { recursive: true, force: true });
  }
}, 120_000);
