// A stdio MCP server marked `sandbox = true` runs inside the tool sandbox and
// still serves its tools; with its environment stripped of secrets.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { McpStatus } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { EVERYTHING_ENTRY, pidsWith } from "../runtime/mcp/support.ts";

let env: LlmDaemon;
let client: Client;
const marker = `crabtalk-sandboxed-mcp-${process.pid}`;

beforeAll(async () => {
  const home = tempHome();
  mkdirSync(join(home, "local"), { recursive: true });
  writeFileSync(
    join(home, "local/CrabTalk.toml"),
    `[mcps.boxed]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING_ENTRY)}, "stdio", "${marker}"]\nsandbox = true\n`,
  );
  env = await startLlmDaemon("openai", { home, env: { GITHUB_TOKEN: "ghp_not_for_mcp_servers_123" } });
  client = await env.daemon.client();
});
afterAll(async () => {
  await client?.close();
  await env?.stop();
  cleanup(env.daemon.home);
});

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

function commOf(pid: number): string {
  return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
}

test("the server connects, runs under bwrap, and its environment has no credential variable", async () => {
  // Servers connect in the background: wait until this one is no longer connecting.
  let boxed = (await client.listMcps()).find((m) => m.name === "boxed")!;
  for (let i = 0; i < 500 && boxed.error === "connecting"; i++) {
    await Bun.sleep(20);
    boxed = (await client.listMcps()).find((m) => m.name === "boxed")!;
  }
  expect(boxed.status).toBe(McpStatus.CONNECTED);
  expect(boxed.toolCount).toBeGreaterThan(3);
  const [pid] = pidsWith(marker).filter((p) => commOf(p) !== "bwrap");
  expect(pid).toBeDefined();
  const ancestors: string[] = [];
  for (let p = parentOf(pid!); p > 1 && p !== env.daemon.proc.pid; p = parentOf(p)) ancestors.push(commOf(p));
  expect(ancestors).toContain("bwrap");
  const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
  expect(environ).not.toContain("GITHUB_TOKEN");
  expect(environ).toContain("CRABTALK_HOME=");
});
