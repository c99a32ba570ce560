// Registering agents (docs/agents.md): `crab` from [system.crab] and its
// identity file; the others from prompt files, configured by manifest entries.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { DEFAULT_AGENT, DEFAULT_AGENT_SETTINGS, type AgentDefinition, type AgentSettings } from "./agent-settings.ts";
import { CRAB_PERSONA } from "./persona.ts";
import { composePrompt, type RuntimeHook } from "./hooks.ts";
import { toolWhitelist } from "./scope.ts";
import { describeFile, isRegularFile } from "./file-kind.ts";
import { unusableName } from "./package-names.ts";
import type { RuntimeLog } from "../base/runtime-log.ts";

export interface AgentSources {
  crab: AgentSettings;
  /** `<home>/Crab.md`: the identity of crab when present and non-empty. */
  identityFile: string;
  /** Manifest entries, first source wins (local manifest first). */
  manifestAgents: Record<string, AgentSettings>;
  /** Directories of `<name>.md` prompt files, first wins; `source` is reported for agents found there; `packaged`: a package's, whose names must be plain words. */
  promptDirs: { path: string; source: string; packaged?: boolean }[];
  /** Explicit prompt files by agent name (a package's `[agents.<name>] prompt`); they win over the directories. */
  promptFiles?: Record<string, string>;
  /** Hooks whose prompt blocks follow the base prompt (docs/agent-loop.md#system-prompt). */
  hooks: readonly RuntimeHook[];
  log: RuntimeLog;
}

export function buildAgents(sources: AgentSources): Map<string, AgentDefinition> {
  const agents = new Map<string, AgentDefinition>();
  agents.set(DEFAULT_AGENT, define(DEFAULT_AGENT, sources.crab, identity(sources), sources.hooks));

  const prompts = new Map<string, string>();
  const found = new Map<string, string>();
  /** Prompt files that are not regular files, by agent name: the file and what it is instead. */
  const unreadable = new Map<string, string>();
  const notRegular = (file: string) => {
    const what = describeFile(file);
    return `${file} is ${what}, not a regular file${what === "a symbolic link to a regular file" ? " (prompt files are not read through links)" : ""}`;
  };
  for (const dir of sources.promptDirs) {
    for (const entry of listPromptFiles(dir.path)) {
      const name = basename(entry.file, ".md");
      const bad = dir.packaged ? unusableName("agent", name, dir.source) : undefined;
      if (bad) {
        sources.log.warn(bad);
        continue;
      }
      if (name === DEFAULT_AGENT) {
        sources.log.warn(`ignoring prompt file ${entry.file}: 'crab' is configured by [system.crab] and Crab.md`);
        continue;
      }
      if (prompts.has(name)) continue;
      if (entry.regular) {
        prompts.set(name, entry.file);
        found.set(name, dir.source);
      } else if (!unreadable.has(name)) unreadable.set(name, notRegular(entry.file));
    }
  }
  for (const [name, file] of Object.entries(sources.promptFiles ?? {})) {
    if (name === DEFAULT_AGENT || !existsSync(file)) continue;
    if (isRegularFile(file)) prompts.set(name, file);
    else if (!prompts.has(name)) unreadable.set(name, notRegular(file));
  }
  for (const name of Object.keys(sources.manifestAgents)) {
    if (name === DEFAULT_AGENT) {
      sources.log.warn("ignoring [agents.crab]: configure the default agent in [system.crab]");
      continue;
    }
    if (prompts.has(name)) continue;
    const what = unreadable.get(name);
    unreadable.delete(name);
    sources.log.warn(
      what
        ? `agent '${name}' is configured but its prompt file ${what}: skipped until it is one`
        : `agent '${name}' is configured but has no prompt file ${name}.md in local/agents/; skipped until that file exists`,
    );
  }
  // A FIFO or a link to a device would block or never end a read: said, never read.
  for (const what of unreadable.values()) sources.log.warn(`ignoring prompt file ${what}: skipped`);
  for (const [name, file] of [...prompts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const settings = sources.manifestAgents[name] ?? { ...DEFAULT_AGENT_SETTINGS, thinking: sources.crab.thinking, source: found.get(name) };
    agents.set(name, define(name, settings, readIfPresent(file), sources.hooks));
  }
  return agents;
}

/** crab's identity: Crab.md when it is a regular file with text, else the built-in persona. */
function identity(sources: AgentSources): string {
  const file = sources.identityFile;
  if (existsSync(file) && !isRegularFile(file)) {
    sources.log.warn(`ignoring ${file}: it is ${describeFile(file)}, not a regular file; crab uses its default persona`);
    return CRAB_PERSONA;
  }
  const text = readIfPresent(file);
  return text.trim() ? text : CRAB_PERSONA;
}

function define(name: string, settings: AgentSettings, basePrompt: string, hooks: readonly RuntimeHook[]): AgentDefinition {
  return {
    ...settings,
    name,
    systemPrompt: composePrompt(hooks, basePrompt, { ...settings, name }),
    toolWhitelist: toolWhitelist(settings),
  };
}

/** The `*.md` entries of a directory, sorted; `regular` false for links, FIFOs, devices, directories. */
function listPromptFiles(dir: string): { file: string; regular: boolean }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name.endsWith(".md"))
    .map((e) => ({ file: join(dir, e.name), regular: e.isFile() }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function readIfPresent(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
