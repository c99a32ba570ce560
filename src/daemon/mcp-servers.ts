// Which MCP servers a runtime connects to (daemon.md §14.1): the local
// manifest's enabled servers (expanded), then components found through
// run/<name>.port files.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { McpServerSpec } from "../runtime/mcp/types.ts";
import type { Argv } from "../runtime/tools/sandbox.ts";
import { expandMcpServer, type Env } from "./config/expand.ts";
import type { HomePaths } from "./paths.ts";
import { manifestMcps } from "./manifest.ts";

/** Wraps a stdio server's command line in the sandbox, or says why it cannot run. */
export type SandboxWrap = (argv: Argv) => { argv: Argv } | { error: string };

export function mcpServerSpecs(
  paths: HomePaths,
  disabled: readonly string[],
  env: Env,
  sandbox: SandboxWrap = (argv) => ({ argv }),
  warn: (message: string) => void = () => {},
): McpServerSpec[] {
  const specs: McpServerSpec[] = [];
  for (const server of Object.values(manifestMcps(paths.localManifest))) {
    if (disabled.includes(server.name)) continue;
    const s = expandMcpServer(server, env);
    let command = s.command || undefined;
    let args = s.args;
    if (command && !s.url && s.sandbox) {
      const wrapped = sandbox([command, ...args]);
      if ("error" in wrapped) {
        warn(`mcp server '${s.name}' skipped: ${wrapped.error}`);
        continue;
      }
      [command, ...args] = wrapped.argv;
    }
    specs.push({ name: s.name, command, args, env: s.env, url: s.url || undefined });
  }
  for (const component of componentPorts(paths.runDir)) {
    if (!specs.some((s) => s.name === component.name)) {
      specs.push({ name: component.name, args: [], env: {}, url: `http://127.0.0.1:${component.port}/mcp` });
    }
  }
  return specs;
}

/** Every run/<name>.port but the daemon's own whose content is a port number. */
function componentPorts(runDir: string): { name: string; port: number }[] {
  let names: string[];
  try {
    names = readdirSync(runDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".port") && n !== "crabtalk.port")
    .flatMap((n) => {
      const text = readFileSync(join(runDir, n), "utf8").trim();
      const port = Number(text);
      return /^\d+$/.test(text) && port > 0 && port < 65536 ? [{ name: n.slice(0, -".port".length), port }] : [];
    });
}
