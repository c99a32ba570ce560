// Which MCP servers a runtime connects to (docs/mcp.md#connecting): the enabled
// servers of the local manifest, then of installed packages (first name wins),
// expanded; stdio servers marked `sandbox = true` wrapped in the tool sandbox.
// Stdio servers start in `cwd` (the user's home), never the crabtalk home.
// Components found through run/<name>.port files are the discovery's
// (components/discovery.ts), connected without a reload.
import type { McpServerSpec } from "../runtime/mcp/types.ts";
import type { Argv } from "../runtime/tools/sandbox.ts";
import { expandMcpServer, type Env } from "../config/expand.ts";
import type { HomePaths } from "./home.ts";
import { manifestMcps } from "./manifest.ts";
import { listInstalled } from "./packages/installed.ts";
import { resolveMcps, type SourcedMcp } from "./packages/resolve.ts";
import { SILENT_LOG, type RuntimeLog } from "../base/runtime-log.ts";

/** Wraps a stdio server's command line in the sandbox, or says why it cannot run. */
export type SandboxWrap = (argv: Argv) => { argv: Argv } | { error: string };

export function mcpServerSpecs(
  servers: readonly SourcedMcp[],
  disabled: readonly string[],
  env: Env,
  cwd: string,
  sandbox: SandboxWrap = (argv) => ({ argv }),
  log: RuntimeLog = SILENT_LOG,
): McpServerSpec[] {
  const specs: McpServerSpec[] = [];
  for (const { config } of servers) {
    if (disabled.includes(config.name)) continue;
    const s = expandMcpServer(config, env);
    let command = s.command || undefined;
    let args = s.args;
    if (command && !s.url && s.sandbox) {
      const wrapped = sandbox([command, ...args]);
      if ("error" in wrapped) {
        log.warn(`mcp server '${s.name}' skipped: ${wrapped.error}`);
        continue;
      }
      [command, ...args] = wrapped.argv;
    }
    specs.push({ name: s.name, command, args, env: s.env, url: s.url || undefined, ...(command && !s.url ? { cwd } : {}) });
  }
  return specs;
}

/** Names of every MCP server the local manifest and the installed packages configure. */
export function configuredMcpNames(paths: HomePaths): string[] {
  return resolveMcps(manifestMcps(paths.localManifest), listInstalled(paths.packages, paths.cacheRepos), SILENT_LOG).map((m) => m.config.name);
}
