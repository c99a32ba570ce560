// One pool over several: the configured servers first, then the components
// discovered since; the first server to offer a tool name keeps it.
import { McpToolUnavailableError, type McpPool } from "./types.ts";

export function joinPools(...pools: McpPool[]): McpPool {
  const owner = (name: string) => pools.find((p) => p.tools([]).some((t) => t.name === name));
  return {
    servers: () => pools.flatMap((p) => p.servers()),
    ready: (scope) => Promise.all(pools.map((p) => p.ready(scope))).then(() => {}),
    connectedNames: () => pools.flatMap((p) => p.connectedNames()),
    tools(scope) {
      const seen = new Set<string>();
      return pools.flatMap((p) => p.tools(scope)).filter((t) => !seen.has(t.name) && seen.add(t.name));
    },
    call(name, args, signal) {
      const pool = owner(name);
      return pool ? pool.call(name, args, signal) : Promise.reject(new McpToolUnavailableError(name));
    },
    // Only the first pool is the runtime's to close: later ones outlive it.
    close: () => pools[0].close(),
  };
}
