// Auto-injected context before each run (daemon.md §7.4), as hooks: the agent
// directory, the working directory and project instructions. (Memory recall
// slots in between when memory lands.)
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { UserMessage } from "../model/types.ts";
import type { RuntimeHook, RunScene } from "./hooks.ts";

const user = (content: string): UserMessage => ({ role: "user", content, injected: true });

export const agentDirectoryHook: RuntimeHook = {
  beforeRun(scene: RunScene) {
    const described = scene.agents.filter((a) => a.name !== "crab" && a.description !== "");
    if (scene.agent.members.length === 0 || described.length === 0) return [];
    return [user(`<agents>\n${described.map((a) => `- ${a.name}: ${a.description}`).join("\n")}\n</agents>`)];
  },
};

export const workingDirectoryHook: RuntimeHook = {
  beforeRun: (scene) => [user(`<environment>\nworking_directory: ${scene.cwd}\n</environment>`)],
};

export const instructionsHook: RuntimeHook = {
  beforeRun(scene) {
    const found = projectInstructions(scene.cwd, scene.home);
    return found.length > 0 ? [user(`<instructions>\n${found.join("\n\n")}\n</instructions>`)] : [];
  },
};

/** Contents of every Crab.md in cwd and its ancestors outside <home>, root-most first. */
export function projectInstructions(cwd: string, home: string): string[] {
  const found: string[] = [];
  const homeAbs = resolve(home);
  let dir = resolve(cwd);
  for (;;) {
    const file = join(dir, "Crab.md");
    if (!isInside(dir, homeAbs) && existsSync(file)) {
      try {
        const text = readFileSync(file, "utf8").trim();
        if (text) found.push(text);
      } catch {
        // Unreadable instructions are skipped, not fatal.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return found.reverse();
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
