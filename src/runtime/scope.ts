// Agent scoping (docs/agents.md#scope): the tool whitelist of a scoped agent and the
// <scope> prompt block that tells it its limits.
import type { AgentSettings } from "./agent-settings.ts";
import type { RuntimeHook } from "./hooks.ts";

export const MEMORY_TOOLS = ["recall", "remember", "memory", "forget"];

export function isScoped(a: Pick<AgentSettings, "skills" | "mcps" | "members">): boolean {
  return a.skills.length > 0 || a.mcps.length > 0 || a.members.length > 0;
}

/** Empty = unrestricted (an unscoped agent keeps every tool). */
export function toolWhitelist(a: Pick<AgentSettings, "skills" | "mcps" | "members">): string[] {
  if (!isScoped(a)) return [];
  const tools = ["bash", "ask_user", ...MEMORY_TOOLS];
  if (a.skills.length > 0) tools.push("skill");
  if (a.mcps.length > 0) tools.push("mcp");
  if (a.members.length > 0) tools.push("delegate");
  return tools;
}

export function scopeBlock(a: Pick<AgentSettings, "skills" | "mcps" | "members">): string {
  if (!isScoped(a)) return "";
  const lines: string[] = [];
  if (a.skills.length > 0) lines.push(`skills: ${a.skills.join(", ")}`);
  if (a.mcps.length > 0) lines.push(`mcp servers: ${a.mcps.join(", ")}`);
  if (a.members.length > 0) lines.push(`members: ${a.members.join(", ")}`);
  return `\n\n<scope>\n${lines.join("\n")}\n</scope>`;
}

/** Whether `tool` may be called by an agent with this whitelist. */
export function allows(whitelist: readonly string[], tool: string): boolean {
  return whitelist.length === 0 || whitelist.includes(tool);
}

export const scopeHook: RuntimeHook = { promptBlock: scopeBlock };
