// What installed packages contribute to a runtime, in the resolution order of
// docs/home.md#search-order: the local manifest first, then packages by scope and file
// name; on a name clash the first wins and the loser is skipped with a warning.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { AgentConfig, McpServerConfig } from "../../config/schema.ts";
import type { InstalledPackage } from "./installed.ts";
import { unusableName } from "../../runtime/package-names.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export const LOCAL_SOURCE = "local";

export interface SourcedMcp {
  config: McpServerConfig;
  /** `local` or the package id. */
  source: string;
}

export interface SourcedAgent {
  config: AgentConfig;
  source: string;
  /** The prompt file named by `[agents.<name>] prompt` in a package repository. */
  promptFile?: string;
}

export function resolveMcps(local: Record<string, McpServerConfig>, packages: readonly InstalledPackage[], log: RuntimeLog): SourcedMcp[] {
  const out: SourcedMcp[] = Object.values(local).map((config) => ({ config, source: LOCAL_SOURCE }));
  for (const pkg of packages) {
    for (const config of Object.values(pkg.manifest.mcps)) {
      const bad = unusableName("MCP server", config.name, pkg.id);
      if (bad) {
        log.warn(bad);
        continue;
      }
      if (out.some((m) => m.config.name === config.name)) {
        log.warn(`MCP '${config.name}' from ${pkg.id} conflicts with already-loaded MCP, skipping`);
        continue;
      }
      out.push({ config, source: pkg.id });
    }
  }
  return out;
}

export function resolveAgents(local: Record<string, AgentConfig>, packages: readonly InstalledPackage[], log: RuntimeLog): Map<string, SourcedAgent> {
  const out = new Map<string, SourcedAgent>(Object.entries(local).map(([n, config]) => [n, { config, source: LOCAL_SOURCE }]));
  for (const pkg of packages) {
    for (const [name, { prompt, ...config }] of Object.entries(pkg.manifest.agents)) {
      const bad = unusableName("agent", name, pkg.id);
      if (bad) {
        log.warn(bad);
        continue;
      }
      if (out.has(name)) {
        log.warn(`agent '${name}' from ${pkg.id} conflicts with already-loaded agent, skipping`);
        continue;
      }
      const promptFile = pkg.repo ? join(pkg.repo, prompt ?? join("agents", `${name}.md`)) : undefined;
      out.set(name, { config, source: pkg.id, promptFile: promptFile && insideDir(pkg.repo!, promptFile) ? promptFile : undefined });
    }
  }
  return out;
}

/** Package repositories as skill / agent-prompt search roots, in order. */
export function packageRepos(packages: readonly InstalledPackage[]): { path: string; source: string }[] {
  return packages.flatMap((p) => (p.repo ? [{ path: p.repo, source: p.id }] : []));
}

/** A manifest's `prompt = "../../x"`, or a symbolic link in the repository, must not read outside it. */
export function insideDir(dir: string, file: string): boolean {
  try {
    return realpathSync(file).startsWith(realpathSync(dir) + "/");
  } catch {
    return false; // missing: nothing to read
  }
}
