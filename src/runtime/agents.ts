// Registering agents (docs/agents.md): `crab` from [system.crab] and its
// identity file; the others from prompt files, configured by manifest entries.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { DEFAULT_AGENT, DEFAULT_AGENT_SETTINGS, type AgentDefinition, type AgentSettings } from "./agent-settings.ts";
import { CRAB_PERSONA } from "./persona.ts";
import { composePrompt, type RuntimeHook } from "./hooks.ts";
import { toolWhitelist } from "./scope.ts";

export interface AgentSources {
  crab: AgentSettings;
  /** `<home>/Crab.md`: the identity of crab when present and non-empty. */
  identityFile: string;
  /** Manifest entries, first source wins (local manifest first). */
  manifestAgents: Record<string, AgentSettings>;
  /** Directories of `<name>.md` prompt files, first wins; `source` is reported for agents found there. */
  promptDirs: { path: string; source: string }[];
  /** Explicit prompt files by agent name (a package's `[agents.<name>] prompt`); they win over the directories. */
  promptFiles?: Record<string, string>;
  /** Hooks whose prompt blocks follow the base prompt (docs/agent-loop.md#system-prompt). */
  hooks: readonly RuntimeHook[];
  warn(message: string): void;
}

export function buildAgents(sources: AgentSources): Map<string, AgentDefinition> {
  const agents = new Map<string, AgentDefinition>();
  const identity = readIfPresent(sources.identityFile).trim() ? readIfPresent(sources.identityFile) : CRAB_PERSONA;
  agents.set(DEFAULT_AGENT, define(DEFAULT_AGENT, sources.crab, identity, sources.hooks));

  const prompts = new Map<string, string>();
  const found = new Map<string, string>();
  for (const dir of sources.promptDirs) {
    for (const file of listPromptFiles(dir.path)) {
      const name = basename(file, ".md");
      if (name === DEFAULT_AGENT) {
        sources.warn(`ignoring prompt file ${file}: 'crab' is configured by [system.crab] and Crab.md`);
        continue;
      }
      if (!prompts.has(name)) {
        prompts.set(name, file);
        found.set(name, dir.source);
      }
    }
  }
  for (const [name, file] of Object.entries(sources.promptFiles ?? {})) {
    if (name !== DEFAULT_AGENT && existsSync(file)) prompts.set(name, file);
  }
  for (const [name, settings] of Object.entries(sources.manifestAgents)) {
    if (name === DEFAULT_AGENT) {
      sources.warn("ignoring [agents.crab]: configure the default agent in [system.crab]");
      continue;
    }
    if (!prompts.has(name)) sources.warn(`agent '${name}' is configured but has no prompt file ${name}.md in local/agents/; skipped until that file exists`);
  }
  for (const [name, file] of [...prompts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const settings = sources.manifestAgents[name] ?? { ...DEFAULT_AGENT_SETTINGS, thinking: sources.crab.thinking, source: found.get(name) };
    agents.set(name, define(name, settings, readIfPresent(file), sources.hooks));
  }
  return agents;
}

function define(name: string, settings: AgentSettings, basePrompt: string, hooks: readonly RuntimeHook[]): AgentDefinition {
  return {
    ...settings,
    name,
    systemPrompt: composePrompt(hooks, basePrompt, { ...settings, name }),
    toolWhitelist: toolWhitelist(settings),
  };
}

function listPromptFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => join(dir, e.name))
    .sort();
}

function readIfPresent(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
