// Where skills are looked for (daemon.md §3.9): the home's local skills, then
// the external directories of other tools in the OS user's home.
import { homedir } from "node:os";
import { defaultSkillDirs, type SkillDir } from "../runtime/skills/dirs.ts";

export function skillDirs(home: string): SkillDir[] {
  return defaultSkillDirs(home, process.env.HOME || homedir());
}
