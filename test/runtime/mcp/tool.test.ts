// The `mcp` tool and hook against the real everything server (docs/tools.md#mcp, docs/agents.md#scope, docs/agent-loop.md#system-prompt).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/runtime/agent-settings.ts";
import { mcpHintLine, mcpHook } from "../../../src/runtime/mcp/hook.ts";
import { connectMcpServers, type McpPool } from "../../../src/runtime/mcp/pool.ts";
import type { ToolCallContext } from "../../../src/runtime/tools/define.ts";
import { ToolRegistry } from "../../../src/runtime/tools/registry.ts";
import { everything } from "./support.ts";
import { SILENT_LOG } from "../../../src/base/runtime-log.ts";

let pool: McpPool;
const registry = new ToolRegistry();

beforeAll(async () => {
  pool = await connectMcpServers([everything("everything"), { name: "broken", command: "/nonexistent/crabtalk-mcp", args: [], env: {} }], {
    baseEnv: process.env,
    extraEnv: {},
    log: SILENT_LOG,
  });
  mcpHook(pool).registerTools!(registry);
}, 40_000);
afterAll(async () => {
  await pool.close();
});

function ctx(mcps: string[] = []): ToolCallContext {
  return {
    agent: "crab",
    session: 1n,
    signal: new AbortController().signal,
    cwd: process.cwd(),
    streaming: true,
    agentDef: { ...DEFAULT_AGENT_SETTINGS, name: "crab", systemPrompt: "", toolWhitelist: [], mcps },
  };
}

const mcp = (args: Record<string, unknown>, mcps: string[] = []) => registry.dispatch({ id: "c1", name: "mcp", arguments: JSON.stringify(args) }, ctx(mcps));

test("the hook registers the mcp tool with name and args fields", () => {
  const [schema] = registry.schemas(["mcp"]);
  expect(schema.name).toBe("mcp");
  expect(Object.keys((schema.parameters as { properties: object }).properties).sort()).toEqual(["args", "name"]);
});

test("an exact name calls the tool; text comes back", async () => {
  expect(await mcp({ name: "echo", args: JSON.stringify({ message: "hello" }) })).toEqual({ output: "Echo: hello", isError: false });
  expect(await mcp({ name: "get-sum", args: '{"a": 2, "b": 3}' }, ["everything"])).toEqual({ output: expect.stringContaining("5"), isError: false });
});

test("a result the server flags as an error becomes `mcp tool error: …`", async () => {
  for (const args of [null, undefined, ""]) {
    const out = await mcp(args === undefined ? { name: "echo" } : { name: "echo", args });
    expect(out.isError).toBe(true);
    expect(out.output).toStartWith("mcp tool error: ");
    expect(out.output).toContain("message");
  }
});

test("args that are not a JSON object are refused before any call", async () => {
  for (const args of ["{not json", "[1,2]", "42", "null"]) {
    const out = await mcp({ name: "echo", args });
    expect(out.isError).toBe(true);
    expect(out.output).toStartWith("invalid tool arguments: ");
  }
});

test('listing: `""` lists all as `<tool>: <description>`; a query filters name or description case-insensitively', async () => {
  const all = await mcp({ name: "" });
  expect(all.isError).toBe(false);
  const lines = all.output.split("\n");
  expect(lines).toContain("echo: Echoes back the input string");
  expect(lines.length).toBe(pool.tools([]).length);
  const byName = await mcp({ name: "ECH" });
  expect(byName).toEqual({ output: "echo: Echoes back the input string", isError: false });
  const byDescription = await mcp({ name: "SUM OF" });
  expect(byDescription.output.split("\n")).toEqual(["get-sum: Returns the sum of two numbers"]);
  expect(await mcp({ name: "zzz-nothing-like-this" })).toEqual({ output: "no tools found", isError: false });
});

test("scope: tools of servers outside a non-empty scope are neither listed nor callable", async () => {
  expect(await mcp({ name: "" }, ["broken"])).toEqual({ output: "no tools found", isError: false });
  expect(await mcp({ name: "ech" }, ["other"])).toEqual({ output: "tool not available: ech", isError: true });
  expect(await mcp({ name: "echo", args: '{"message":"x"}' }, ["other"])).toEqual({ output: "tool not available: echo", isError: true });
  expect((await mcp({ name: "" }, ["everything"])).output).toContain("echo: ");
});

test("an unknown name under a scope is `tool not available: <name>`", async () => {
  expect(await mcp({ name: "no-such-tool" }, ["everything"])).toEqual({ output: "tool not available: no-such-tool", isError: true });
});

test("the hint line names every connected server, not the failed ones", async () => {
  const line = mcpHintLine(pool)!;
  expect(line).toContain("everything");
  expect(line).not.toContain("broken");
  expect(line).toContain("mcp");
  const empty = await connectMcpServers([], { baseEnv: {}, extraEnv: {}, log: SILENT_LOG });
  expect(mcpHintLine(empty)).toBeUndefined();
});

test("a tool whose server has gone is `mcp tool '<x>' not available`", async () => {
  const own = await connectMcpServers([everything("gone", `crabtalk-mcp-gone-${process.pid}`)], { baseEnv: process.env, extraEnv: {}, log: SILENT_LOG });
  const reg = new ToolRegistry();
  mcpHook(own).registerTools!(reg);
  await own.close();
  expect(await reg.dispatch({ id: "c2", name: "mcp", arguments: '{"name":"echo","args":"{\\"message\\":\\"x\\"}"}' }, ctx())).toEqual({
    output: "mcp tool 'echo' not available",
    isError: true,
  });
}, 20_000);

test("a call that fails in transport is `mcp call failed: …`", async () => {
  const aborted = new AbortController();
  aborted.abort(new Error("stopped by test"));
  const out = await registry.dispatch(
    { id: "c3", name: "mcp", arguments: '{"name":"echo","args":"{\\"message\\":\\"x\\"}"}' },
    { ...ctx(), signal: aborted.signal },
  );
  expect(out.isError).toBe(true);
  expect(out.output).toStartWith("mcp call failed: ");
});
