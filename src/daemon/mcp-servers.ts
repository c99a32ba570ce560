// Which MCP servers a runtime connects to (daemon.md §14.1): the enabled
// servers of the local manifest, then of installed packages (first name wins),
// expanded. Components found through run/<name>.port files are the
// discovery's (components/discovery.ts), connected without a reload.
import type { McpServerSpec } from "../runtime/mcp/types.ts";
import { expandMcpServer, type Env } from "./config/expand.ts";
import type { SourcedMcp } from "./packages/resolve.ts";

export function mcpServerSpecs(servers: readonly SourcedMcp[], disabled: readonly string[], env: Env): McpServerSpec[] {
  return servers
    .filter((m) => !disabled.includes(m.config.name))
    .map(({ config }) => {
      const s = expandMcpServer(config, env);
      return { name: s.name, command: s.command || undefined, args: s.args, env: s.env, url: s.url || undefined };
    });
}
