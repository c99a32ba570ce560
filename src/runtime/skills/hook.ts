// The skills feature as a runtime hook (docs/agent-loop.md#hooks): discovery at
// construction, the `skill` tool, slash expansion of user messages and the
// Skills part of the <resources> prompt block (docs/agent-loop.md#system-prompt item 4).
import type { AgentSettings } from "../agent-settings.ts";
import type { RuntimeHook } from "../hooks.ts";
import type { SkillDir } from "./dirs.ts";
import { discoverSkills } from "./discover.ts";
import type { SkillRegistry } from "./registry.ts";
import { skillTool } from "../tools/skill.ts";
import { expandSlash } from "./slash.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export interface SkillsHookOptions {
  dirs: SkillDir[];
  disabled: string[];
  log: RuntimeLog;
  /** Lines that open the <resources> block before the skills (the MCP servers line, docs/agent-loop.md#system-prompt item 4), read when a prompt is composed. */
  leadLines?: () => string[];
}

const SKILLS_LINE =
  "Skills: a <skill> tag in a message means that skill was pre-loaded; follow it directly, without announcing or re-loading it. " +
  "Use the `skill` tool to discover or load skills.";

/**
 * The Skills hint lines for one agent (empty when it can see no skill). Exported
 * so whoever composes the whole <resources> block (with the MCP line) can reuse them.
 */
export function skillHintLines(registry: SkillRegistry, agent: Pick<AgentSettings, "skills">): string[] {
  const visible = registry.list().filter((s) => agent.skills.length === 0 || agent.skills.includes(s.name));
  if (visible.length === 0) return [];
  return [SKILLS_LINE, ...visible.map((s) => (s.description ? `- ${s.name}: ${s.description}` : `- ${s.name}`))];
}

/** The resources block around hint lines; "" when there are none. */
export function resourcesBlock(lines: readonly string[]): string {
  return lines.length === 0 ? "" : `\n\n<resources>\n${lines.join("\n")}\n</resources>`;
}

export function skillsHook(options: SkillsHookOptions): { hook: RuntimeHook; registry: SkillRegistry } {
  const registry = discoverSkills(options.dirs, options.disabled, options.log);
  const hook: RuntimeHook = {
    promptBlock: (agent) => resourcesBlock([...(options.leadLines?.() ?? []), ...skillHintLines(registry, agent)]),
    registerTools: (tools) => tools.register(skillTool({ dirs: options.dirs, disabled: options.disabled, registry })),
    preprocess: (content, scene) => expandSlash(content, { dirs: options.dirs, disabled: options.disabled, scope: scene.agent.skills }),
  };
  return { hook, registry };
}
