// Plugs MCP into the runtime (docs/agent-loop.md#system-prompt item 4, docs/tools.md#mcp): registers the
// `mcp` tool and provides the resources hint line naming connected servers.
import type { RuntimeHook } from "../hooks.ts";
import type { McpPool } from "./types.ts";
import { mcpTool } from "./tool.ts";

export function mcpHook(pool: McpPool): RuntimeHook {
  return {
    registerTools(registry) {
      registry.register(mcpTool(pool));
    },
  };
}

/** The `<resources>` line naming every connected server (not scope-filtered); undefined when none is connected. */
export function mcpHintLine(pool: McpPool): string | undefined {
  const names = pool.connectedNames();
  if (names.length === 0) return undefined;
  return `MCP servers: ${names.join(", ")}. Use the mcp tool to list their tools (name "" lists all) or call one by name.`;
}
