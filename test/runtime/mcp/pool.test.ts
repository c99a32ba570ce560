// The MCP pool against the real everything server (docs/mcp.md).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connectMcpServers, type McpPool } from "../../../src/runtime/mcp/pool.ts";
import { everything, pidsWith, waitFor } from "./support.ts";
import { SILENT_LOG } from "../../../src/base/runtime-log.ts";

const marker = `crabtalk-mcp-pool-${process.pid}`;
let pool: McpPool;
const warnings: string[] = [];

beforeAll(async () => {
  pool = await connectMcpServers(
    [
      everything("everything", marker, { CRAB_SERVER_ONLY: "server", CRAB_SHARED: "server" }),
      { name: "broken", command: "/nonexistent/crabtalk-no-such-binary", args: [], env: {} },
      everything("second", `${marker}-second`),
    ],
    {
      baseEnv: { CRAB_BASE_ONLY: "base", CRAB_SHARED: "base", CRAB_UNDEFINED: undefined },
      extraEnv: { CRAB_EXTRA_ONLY: "extra", CRAB_SHARED: "extra" },
      log: { warn: (m) => warnings.push(m) },
    },
  );
}, 40_000);
afterAll(async () => {
  await pool.close();
});

test("connects, lists the server's tools, and reports every server's status", () => {
  const [ok, broken, second] = pool.servers();
  expect(ok).toMatchObject({ name: "everything", status: "connected", error: "" });
  expect(ok.toolCount).toBeGreaterThan(3);
  expect(broken.name).toBe("broken");
  expect(broken.status).toBe("failed");
  expect(broken.error).not.toBe("");
  expect(broken.toolCount).toBe(0);
  expect(second).toMatchObject({ name: "second", status: "connected", error: "" });
  expect(pool.connectedNames()).toEqual(["everything", "second"]);
  expect(warnings.some((w) => w.includes("'broken'"))).toBe(true);
  const names = pool.tools([]).map((t) => t.name);
  expect(names).toContain("echo");
  expect(names).toContain("get-sum");
  expect(pool.tools([]).find((t) => t.name === "echo")).toEqual({ name: "echo", description: "Echoes back the input string", server: "everything" });
});

test("the first server wins a tool name; the later one's duplicates are skipped with a warning", () => {
  expect(pool.tools([]).filter((t) => t.name === "echo")).toHaveLength(1);
  expect(pool.tools(["second"])).toEqual([]);
  expect(pool.tools(["everything"]).length).toBe(pool.servers()[0].toolCount);
  expect(warnings.some((w) => w.includes("'echo'") && w.includes("'second'"))).toBe(true);
});

test("a call returns the text content; a server-flagged error sets isError", async () => {
  expect(await pool.call("echo", { message: "hi" })).toEqual({ text: "Echo: hi", isError: false });
  const bad = await pool.call("echo", undefined); // missing `message`: the server's input validation fails
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain("message");
});

test("the server's environment is daemon env + [env] + its own env (server wins)", async () => {
  const { text } = await pool.call("get-env", undefined);
  const env = JSON.parse(text) as Record<string, string>;
  expect(env.CRAB_BASE_ONLY).toBe("base");
  expect(env.CRAB_EXTRA_ONLY).toBe("extra");
  expect(env.CRAB_SERVER_ONLY).toBe("server");
  expect(env.CRAB_SHARED).toBe("server");
  expect("CRAB_UNDEFINED" in env).toBe(false);
});

test("a server that does not answer in time is skipped", async () => {
  const warned: string[] = [];
  const arg = `30.${process.pid}`;
  const slow = await connectMcpServers([{ name: "mute", command: "sleep", args: [arg], env: {} }], {
    baseEnv: process.env,
    extraEnv: {},
    timeoutMs: 300,
    log: { warn: (m) => warned.push(m) },
  });
  expect(slow.servers()).toEqual([{ name: "mute", status: "failed", error: "timed out after 300 ms", toolCount: 0 }]);
  expect(slow.connectedNames()).toEqual([]);
  expect(warned).toHaveLength(1);
  await slow.close();
  expect(await waitFor(() => pidsWith(`sleep ${arg}`).length === 0)).toBe(true);
});

test("close() ends the stdio server processes", async () => {
  const m = `crabtalk-mcp-close-${process.pid}`;
  const own = await connectMcpServers([everything("closing", m)], { baseEnv: process.env, extraEnv: {}, log: SILENT_LOG });
  expect(pidsWith(m).length).toBeGreaterThan(0);
  await own.close();
  expect(await waitFor(() => pidsWith(m).length === 0)).toBe(true);
  await expect(own.call("echo", { message: "x" })).rejects.toThrow("mcp tool 'echo' not available");
}, 20_000);
