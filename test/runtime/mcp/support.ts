// Shared setup for the MCP tests: the real `mcp-server-everything`, run by
// the current runtime (bun) from its installed JS entry.
import { join } from "node:path";
import type { McpServerSpec } from "../../../src/runtime/mcp/pool.ts";

export const EVERYTHING_ENTRY = join(import.meta.dir, "../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** A stdio spec; `marker` is an extra argv word the server ignores, to find its process. */
export function everything(name: string, marker = `crabtalk-mcp-${name}-${process.pid}`, env: Record<string, string> = {}): McpServerSpec {
  return { name, command: process.execPath, args: [EVERYTHING_ENTRY, "stdio", marker], env };
}

/** Pids of live processes whose command line contains `marker`. */
export function pidsWith(marker: string): number[] {
  const out = Bun.spawnSync(["ps", "-eo", "pid=,args="]).stdout.toString();
  return out
    .split("\n")
    .filter((l) => l.includes(marker) && !l.includes("ps -eo"))
    .map((l) => Number.parseInt(l.trim(), 10))
    .filter((n) => Number.isFinite(n));
}

export async function waitFor(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await Bun.sleep(50);
  }
  return cond();
}
