// The directory walk shared by discovery and ListSkills (docs/memory.md#discovery,
// docs/memory.md#listing-skills): hidden directories are skipped, a directory holding SKILL.md is a
// skill and is not descended further.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

export const SKILL_FILE = "SKILL.md";

/** Skill directories under `root` in a stable (name-sorted, depth-first) order; a missing root yields none. */
export function skillDirsUnder(root: string): string[] {
  const found: string[] = [];
  // Skill folders are often symlinked in; real paths guard against link cycles.
  const seen = new Set<string>();
  const visit = (dir: string): void => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return; // missing or unreadable: skipped like a missing directory
    }
    for (const name of names) {
      if (name.startsWith(".")) continue;
      const child = join(dir, name);
      if (!isDirectory(child)) continue;
      if (isFile(join(child, SKILL_FILE))) found.push(child);
      else visit(child);
    }
  };
  visit(root);
  return found;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
