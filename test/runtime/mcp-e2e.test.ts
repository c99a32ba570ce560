// MCP servers through a real daemon (docs/mcp.md, docs/tools.md#mcp, docs/protocol.md#mcp-servers):
// the real everything server over stdio, connected at start and on reload.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { McpStatus, ResourceKind, SourceKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { EVERYTHING_ENTRY, pidsWith, waitFor } from "./mcp/support.ts";

let env: LlmDaemon;
let client: Client;
let home: string;
const marker = `crabtalk-mcp-e2e-${process.pid}`;

beforeAll(async () => {
  home = tempHome();
  mkdirSync(join(home, "local"), { recursive: true });
  writeFileSync(
    join(home, "local/CrabTalk.toml"),
    `[mcps.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING_ENTRY)}, "stdio", "${marker}"]\nenv = { SECRET_TOKEN = "tok-123" }\n\n[mcps.broken]\ncommand = "/nonexistent/mcp-server"\n`,
  );
  env = await startLlmDaemon("openai", { home });
  client = await env.daemon.client();
});
afterAll(async () => {
  await client.close();
  await env.stop();
  expect(pidsWith(marker)).toEqual([]); // the daemon's shutdown ends its stdio servers
  cleanup(home);
});

test("ListMcps reports each local server with its status, tools and redacted env", async () => {
  // Servers connect in the background after start: "connecting" until they are done.
  let mcps = await client.listMcps();
  for (let i = 0; i < 1500 && mcps.some((m) => m.error === "connecting"); i++) {
    await Bun.sleep(20);
    mcps = await client.listMcps();
  }
  const everything = mcps.find((m) => m.name === "everything")!;
  expect(everything).toMatchObject({ status: McpStatus.CONNECTED, source: "local", sourceKind: SourceKind.LOCAL, enabled: true });
  expect(everything.toolCount).toBeGreaterThan(3);
  expect(everything.env).toEqual({ SECRET_TOKEN: "<redacted>" });
  const broken = mcps.find((m) => m.name === "broken")!;
  expect(broken.status).toBe(McpStatus.FAILED);
  expect(broken.error).not.toBe("");
});

test("agents are told about connected servers and call their tools through mcp", async () => {
  env.fake.script(
    {
      toolCalls: [
        { id: "m1", name: "mcp", arguments: JSON.stringify({ name: "echo", args: JSON.stringify({ message: "hello mcp" }) }) },
        { id: "m2", name: "mcp", arguments: JSON.stringify({ name: "echo" }) },
      ],
    },
    { text: "done" },
  );
  const results: Record<string, { output: string; isError: boolean }> = {};
  for await (const e of client.stream({ agent: "crab", content: "use mcp", sender: "mcp-user" })) {
    if (e.event.case === "toolResult") results[e.event.value.callId] = e.event.value;
  }
  expect(results.m1).toEqual(expect.objectContaining({ isError: false }));
  expect(results.m1.output).toContain("hello mcp");
  expect(results.m2.isError).toBe(true);
  expect(results.m2.output).toStartWith("mcp tool error:");
  const system = env.fake.requests.filter((r) => r.body?.stream === true && JSON.stringify(r.body.messages).includes("use mcp"))[0].body.messages[0].content;
  expect(system).toContain("<resources>\nMCP servers: everything.");
});

test("SetLocalMcps replaces the list (keeping a redacted env value) and reconnects", async () => {
  const [everything] = (await client.listMcps()).filter((m) => m.name === "everything");
  await client.setLocalMcps([{ ...everything, env: { SECRET_TOKEN: "<redacted>" } }]);
  const manifest = readFileSync(join(home, "local/CrabTalk.toml"), "utf8");
  expect(manifest).toContain("tok-123");
  expect(manifest).not.toContain("broken");
  expect((await client.listMcps()).map((m) => [m.name, m.status])).toEqual([["everything", McpStatus.CONNECTED]]);
  expect((await daemonError(client.setLocalMcps([{ name: "", command: "x" }]))).code).toBe(400);
  expect(
    (
      await daemonError(
        client.setLocalMcps([
          { name: "a", command: "x" },
          { name: "a", command: "y" },
        ]),
      )
    ).code,
  ).toBe(400);
});

test("a disabled server is not connected, and its tools are gone", async () => {
  await client.setEnabled(ResourceKind.MCP, "everything", false);
  expect((await client.listMcps())[0]).toMatchObject({ enabled: false, status: McpStatus.DISCONNECTED });
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true); // the reload closed it
  env.fake.script({ toolCalls: [{ id: "d1", name: "mcp", arguments: JSON.stringify({ name: "" }) }] }, { text: "none" });
  let output = "";
  for await (const e of client.stream({ agent: "crab", content: "list mcp", sender: "mcp-off" })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  expect(output).toBe("no tools found");
  await client.setEnabled(ResourceKind.MCP, "everything", true);
  expect((await client.listMcps())[0].status).toBe(McpStatus.CONNECTED);
});
