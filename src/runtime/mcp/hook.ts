// Plugs MCP into the runtime (docs/agent-loop.md#system-prompt item 4, docs/tools.md#mcp): registers the
// `mcp` tool and provides the resources hint line naming connected servers;
// before a run whose sender has MCP servers from an editor, a line naming them
// (docs/mcp.md#servers-from-an-editor).
import type { RuntimeHook } from "../hooks.ts";
import { allows } from "../scope.ts";
import type { SenderPools } from "./sender-pools.ts";
import type { McpPool } from "./types.ts";
import { mcpTool } from "./tool.ts";

export function mcpHook(pool: McpPool, senders?: SenderPools): RuntimeHook {
  return {
    registerTools(registry) {
      registry.register(mcpTool(pool, senders));
    },
    beforeRun(scene) {
      const names = senders?.forSender(scene.sender)?.pool.connectedNames() ?? [];
      if (names.length === 0 || !allows(scene.agent.toolWhitelist, "mcp")) return [];
      const line = `MCP servers from the user's editor: ${names.join(", ")}. Use the mcp tool to list their tools (name "" lists all) or call one by name.`;
      return [{ role: "user", content: `<resources>\n${line}\n</resources>` }];
    },
  };
}
/** The `<resources>` line naming every connected server (not scope-filtered); undefined when none is connected. */
export function mcpHintLine(pool: McpPool): string | undefined {
  const names = pool.connectedNames();
  if (names.length === 0) return undefined;
  return `MCP servers: ${names.join(", ")}. Use the mcp tool to list their tools (name "" lists all) or call one by name.`;
}
