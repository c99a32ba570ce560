// Skill search directories (docs/home.md#search-order, docs/home.md#layout) and how ListSkills names
// their source (docs/memory.md#listing-skills).
import { basename, dirname, join } from "node:path";

export interface SkillDir {
  path: string;
  /** `local`, a package id `scope/name`, or an external source such as `claude`. */
  source: string;
  sourceKind: "local" | "package" | "external";
}

/** Outside `<home>`, relative to the OS user's home, searched in this order. */
export const EXTERNAL_SKILL_DIRS = [".claude/skills", ".codex/skills", ".openclaw/skills"];

/** The parent's name without its dot when it is hidden (`~/.claude/skills` → `claude`), else `external`. */
export function externalSource(dir: string): string {
  const parent = basename(dirname(dir));
  return parent.startsWith(".") && parent.length > 1 ? parent.slice(1) : "external";
}

/** `<home>/local/skills`, then each package repository (in the order given), then the external directories. */
export function defaultSkillDirs(home: string, osHome: string, packages: readonly { path: string; source: string }[] = []): SkillDir[] {
  const external = EXTERNAL_SKILL_DIRS.map((rel): SkillDir => {
    const path = join(osHome, rel);
    return { path, source: externalSource(path), sourceKind: "external" };
  });
  const fromPackages = packages.map((p): SkillDir => ({ path: p.path, source: p.source, sourceKind: "package" }));
  return [{ path: join(home, "local", "skills"), source: "local", sourceKind: "local" }, ...fromPackages, ...external];
}
