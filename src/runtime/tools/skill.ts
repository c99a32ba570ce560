// The `skill` tool (docs/tools.md#skill): exact load by name (fresh from disk),
// else a filtered listing of the registry; the agent's skill scope is
// enforced here whatever the model asks (docs/agents.md#scope).
import { z } from "zod";
import type { SkillDir } from "../skills/dirs.ts";
import { loadFirstExisting } from "../skills/load.ts";
import type { SkillRegistry } from "../skills/registry.ts";
import { defineTool } from "./define.ts";

export interface SkillToolOptions {
  dirs: readonly SkillDir[];
  disabled: readonly string[];
  registry: SkillRegistry;
}

const input = z.object({
  name: z.string().describe('skill to load; without an exact match, skills whose name or description contains it are listed; "" lists all'),
});

export function skillTool(options: SkillToolOptions) {
  return defineTool({
    name: "skill",
    description:
      "Load a skill by exact name: returns its instructions and its directory (for any files it refers to). " +
      'With no exact match, lists skills whose name or description contains the text; "" lists every skill.',
    input,
    async run({ name }, ctx) {
      const scope = ctx.agentDef.skills;
      if (scope.length > 0 && name !== "" && !scope.includes(name)) {
        return { output: `skill not available: ${name}`, isError: true };
      }
      // The name becomes a path segment: nothing may climb out of a skill directory.
      if (name.includes("..") || name.includes("/") || name.includes("\\")) {
        return { output: `invalid skill name: ${name}`, isError: true };
      }
      if (name !== "" && !options.disabled.includes(name)) {
        const loaded = loadFirstExisting(options.dirs, name);
        if (loaded.found) {
          if ("error" in loaded) return { output: `failed to parse skill: ${loaded.error}`, isError: true };
          options.registry.upsert(loaded.skill);
          return `${loaded.skill.body}\n\nSkill directory: ${loaded.dir}`;
        }
      }
      const query = name.toLowerCase();
      const lines = options.registry
        .list()
        .filter((s) => scope.length === 0 || scope.includes(s.name))
        .filter((s) => query === "" || s.name.toLowerCase().includes(query) || s.description.toLowerCase().includes(query))
        .map((s) => `${s.name}: ${s.description}`);
      return lines.length > 0 ? lines.join("\n") : "no skills found";
    },
  });
}
