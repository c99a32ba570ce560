// Auto-injected messages produced before each run (daemon.md §7.4): never
// persisted, replaced every run, inserted just before the new user message.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, isAbsolute } from "node:path";
import type { UserMessage } from "../model/types.ts";
import type { AgentDefinition } from "./agent-settings.ts";

export interface InjectionInput {
  agent: AgentDefinition;
  /** Every registered agent (the directory lists those with a description, except crab). */
  agents: AgentDefinition[];
  cwd: string;
  home: string;
}

export function injectedMessages(input: InjectionInput): UserMessage[] {
  const out: UserMessage[] = [];
  const inject = (content: string) => out.push({ role: "user", content, injected: true });

  const described = input.agents.filter((a) => a.name !== "crab" && a.description !== "");
  if (input.agent.members.length > 0 && described.length > 0) {
    inject(`<agents>\n${described.map((a) => `- ${a.name}: ${a.description}`).join("\n")}\n</agents>`);
  }
  inject(`<environment>\nworking_directory: ${input.cwd}\n</environment>`);
  const instructions = projectInstructions(input.cwd, input.home);
  if (instructions.length > 0) inject(`<instructions>\n${instructions.join("\n\n")}\n</instructions>`);
  return out;
}

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
