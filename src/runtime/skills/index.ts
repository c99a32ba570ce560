// The skills module's public surface (docs/memory.md#skills), for the daemon to wire in.
export { defaultSkillDirs, EXTERNAL_SKILL_DIRS, externalSource, type SkillDir } from "./dirs.ts";
export { discoverSkills, listSkillInfos, type SkillInfo } from "./discover.ts";
export { resourcesBlock, skillHintLines, skillsHook, type SkillsHookOptions } from "./hook.ts";
export { SkillRegistry } from "./registry.ts";
export { parseSkill, readSkillFile, SkillParseError, type Skill } from "./skill-file.ts";
export { expandSlash, type SlashOptions } from "./slash.ts";
