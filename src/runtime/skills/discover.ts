// Skill discovery (docs/memory.md#discovery) and the ListSkills view (docs/memory.md#listing-skills).
import { join } from "node:path";
import { SkillRegistry } from "./registry.ts";
import { readSkillFile, type Skill } from "./skill-file.ts";
import { SKILL_FILE, skillDirsUnder } from "./walk.ts";
import type { SkillDir } from "./dirs.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export { SkillRegistry } from "./registry.ts";
export { defaultSkillDirs, externalSource, type SkillDir } from "./dirs.ts";

export interface SkillInfo {
  name: string;
  enabled: boolean;
  source: string;
  sourceKind: SkillDir["sourceKind"];
}

/** Loads every enabled skill in search order; the first of a name wins. Never throws: problems become warnings. */
export function discoverSkills(dirs: readonly SkillDir[], disabled: readonly string[], log: RuntimeLog): SkillRegistry {
  const registry = new SkillRegistry();
  for (const dir of dirs) {
    for (const skillDir of skillDirsUnder(dir.path)) {
      const file = join(skillDir, SKILL_FILE);
      let skill: Skill;
      try {
        skill = readSkillFile(file);
      } catch (err) {
        log.warn(`skill ${file}: ${(err as Error).message}, skipping`);
        continue;
      }
      if (disabled.includes(skill.name)) continue;
      if (registry.contains(skill.name)) {
        log.warn(`skill '${skill.name}' from ${dir.source} (${file}) conflicts with already-loaded skill, skipping`);
        continue;
      }
      registry.add(skill);
    }
  }
  return registry;
}

/** Every discoverable skill, disabled ones included (so they can be re-enabled), first name wins. */
export function listSkillInfos(dirs: readonly SkillDir[], disabled: readonly string[]): SkillInfo[] {
  const infos: SkillInfo[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    for (const skillDir of skillDirsUnder(dir.path)) {
      let name: string;
      try {
        name = readSkillFile(join(skillDir, SKILL_FILE)).name;
      } catch {
        continue; // unparsable: discovery already warns about it
      }
      if (seen.has(name)) continue;
      seen.add(name);
      infos.push({ name, enabled: !disabled.includes(name), source: dir.source, sourceKind: dir.sourceKind });
    }
  }
  return infos;
}
