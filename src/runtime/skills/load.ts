// Exact loads by name, read fresh from disk each time so edits take effect
// without a reload (docs/memory.md#edits-without-reload). Only a direct child `<dir>/<name>` counts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SkillDir } from "./dirs.ts";
import { readSkillFile, type Skill } from "./skill-file.ts";
import { SKILL_FILE } from "./walk.ts";

export type ExactLoad = { found: false } | { found: true; skill: Skill; dir: string } | { found: true; error: string; dir: string };

/** The skill tool's rule (docs/tools.md#skill): the first directory where the file exists decides, even if it fails to parse. */
export function loadFirstExisting(dirs: readonly SkillDir[], name: string): ExactLoad {
  for (const d of dirs) {
    const dir = join(d.path, name);
    const file = join(dir, SKILL_FILE);
    if (!existsSync(file)) continue;
    try {
      return { found: true, skill: readSkillFile(file), dir };
    } catch (err) {
      return { found: true, error: (err as Error).message, dir };
    }
  }
  return { found: false };
}

/** Slash expansion's rule (docs/memory.md#slash-commands): the first file that parses wins; broken ones are passed over. */
export function loadFirstParsing(dirs: readonly SkillDir[], name: string): Skill | undefined {
  for (const d of dirs) {
    try {
      return readSkillFile(join(d.path, name, SKILL_FILE));
    } catch {
      // missing or unparsable: try the next directory
    }
  }
  return undefined;
}
