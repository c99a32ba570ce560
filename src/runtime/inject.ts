// Auto-injected context before each run (docs/agent-loop.md#injected-context), as hooks: the agent
// directory, the working directory and project instructions. (Memory recall
// slots in between when memory lands.)
import { existsSync, readFileSync, statSync } from "node:fs";
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
  for (const file of candidates(cwd, home)) {
    const text = instructionFile(file);
    if (text) found.push(text);
  }
  return found;
}

const MAX_CACHED = 256;
/** Per (cwd, home): the Crab.md paths to look at, root-most first (pure path arithmetic). */
const candidateCache = new Map<string, string[]>();

function candidates(cwd: string, home: string): string[] {
  const key = `${cwd}\u0000${home}`;
  let files = candidateCache.get(key);
  if (files) return files;
  files = [];
  const homeAbs = resolve(home);
  let dir = resolve(cwd);
  for (;;) {
    if (!isInside(dir, homeAbs)) files.push(join(dir, "Crab.md"));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  files.reverse();
  if (candidateCache.size >= MAX_CACHED) candidateCache.clear();
  candidateCache.set(key, files);
  return files;
}

interface CachedFile {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  text: string;
}
/**
 * Instruction files read before, by path: each turn still stats the file, and
 * reads it again only when its inode, size, mtime or ctime changed, so an edit
 * is seen on the next turn.
 */
const fileCache = new Map<string, CachedFile>();

/** A Crab.md's trimmed text; "" when missing, not a regular file, or unreadable (skipped, not fatal). */
function instructionFile(file: string): string {
  // Most directories have none: the cheaper existence check first.
  let st;
  try {
    st = existsSync(file) ? statSync(file, { throwIfNoEntry: false }) : undefined;
  } catch {
    st = undefined;
  }
  if (!st?.isFile()) {
    fileCache.delete(file);
    return "";
  }
  const cached = fileCache.get(file);
  if (cached && cached.ino === st.ino && cached.size === st.size && cached.mtimeMs === st.mtimeMs && cached.ctimeMs === st.ctimeMs) {
    return cached.text;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    fileCache.delete(file);
    return "";
  }
  if (fileCache.size >= MAX_CACHED) fileCache.clear();
  fileCache.set(file, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, text });
  return text;
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
