// A streamable HTTP MCP server (docs/mcp.md#connecting): the everything server in
// its `streamableHttp` mode, reached by url.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { createServer } from "node:net";
import { connectMcpServers, type McpPool } from "../../../src/runtime/mcp/pool.ts";
import { EVERYTHING_ENTRY } from "./support.ts";
import { SILENT_LOG } from "../../../src/base/runtime-log.ts";

let server: Subprocess<"ignore", "ignore", "pipe">;
let pool: McpPool;

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

async function waitListening(proc: typeof server): Promise<void> {
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 15_000;
  while (!seen.includes("listening on port")) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${seen}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${seen}`);
    seen += decoder.decode(value);
  }
  reader.releaseLock();
}

beforeAll(async () => {
  const port = await freePort();
  server = Bun.spawn([process.execPath, EVERYTHING_ENTRY, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  await waitListening(server);
  pool = await connectMcpServers([{ name: "web", url: `http://127.0.0.1:${port}/mcp`, args: [], env: {} }], { baseEnv: {}, extraEnv: {}, log: SILENT_LOG });
}, 30_000);
afterAll(async () => {
  await pool?.close();
  server?.kill();
  await server?.exited;
});

test("connects over streamable HTTP, lists and calls tools", async () => {
  expect(pool.servers()[0]).toMatchObject({ name: "web", status: "connected", error: "" });
  expect(pool.tools([]).map((t) => t.name)).toContain("echo");
  expect(await pool.call("echo", { message: "over http" })).toEqual({ text: "Echo: over http", isError: false });
});

test("an unreachable url fails that server only", async () => {
  const port = await freePort();
  const other = await connectMcpServers([{ name: "nowhere", url: `http://127.0.0.1:${port}/mcp`, args: [], env: {} }], {
    baseEnv: {},
    extraEnv: {},
    timeoutMs: 5000,
    log: SILENT_LOG,
  });
  expect(other.servers()[0].status).toBe("failed");
  expect(other.servers()[0].error).not.toBe("");
  await other.close();
});
