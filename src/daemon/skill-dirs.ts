// Where skills are looked for (docs/home.md#search-order): the home's local skills, then
// installed packages' repositories, then the external directories of other
// tools in the OS user's home.
import { homedir } from "node:os";
import { defaultSkillDirs, type SkillDir } from "../runtime/skills/dirs.ts";
import type { HomePaths } from "../base/home-paths.ts";
import { listInstalled, type InstalledPackage } from "./packages/installed.ts";
import { packageRepos } from "./packages/resolve.ts";

export function skillDirs(paths: HomePaths, installed: readonly InstalledPackage[] = listInstalled(paths.packages, paths.cacheRepos)): SkillDir[] {
  return defaultSkillDirs(paths.home, process.env.HOME || homedir(), packageRepos(installed));
}
