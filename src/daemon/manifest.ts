// The local manifest `local/CrabTalk.toml` (docs/packages.md#manifests): read its agents,
// and edit its [agents.<name>] tables atomically for Create/Update/DeleteAgent.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError } from "../config/error.ts";
import { parseTomlText } from "../config/load.ts";
import { agentTableSchema, mcpTableSchema, type AgentConfig, type McpServerConfig } from "../config/schema.ts";
import { setTable } from "../config/table-edit.ts";
import { writeFileAtomicSync } from "../base/atomic-file.ts";

export function readManifest(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  return parseTomlText(readFileSync(path, "utf8"), "local/CrabTalk.toml");
}

export function manifestAgents(path: string): Record<string, AgentConfig> {
  const doc = readManifest(path);
  const parsed = agentTableSchema.safeParse(doc.agents ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`local/CrabTalk.toml: agents.${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** Sets (or, with undefined, removes) `[agents.<name>]`, keeping the rest of the file's text. */
export function writeManifestAgent(path: string, name: string, table: Record<string, unknown> | undefined): void {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, setTable(text, ["agents", name], table));
}

/** The local manifest's MCP servers ([mcps], docs/packages.md#manifests), validated, keyed by name. */
export function manifestMcps(path: string): Record<string, McpServerConfig> {
  const parsed = mcpTableSchema.safeParse(readManifest(path).mcps ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`local/CrabTalk.toml: mcps.${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** Replaces the [mcps] table (dropped when empty), keeping the rest of the file's text. */
export function writeManifestMcps(path: string, mcps: Record<string, Record<string, unknown>>): void {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, setTable(text, ["mcps"], Object.keys(mcps).length > 0 ? mcps : undefined));
}
