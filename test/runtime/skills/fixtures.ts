// Real skill files in temp directories for the skills tests.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_AGENT_SETTINGS, type AgentDefinition } from "../../../src/runtime/agent-settings.ts";
import type { SkillDir } from "../../../src/runtime/skills/dirs.ts";
import type { ToolCallContext } from "../../../src/runtime/tools/define.ts";

const made: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-skills-"));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Writes `<root>/<rel>/SKILL.md` and returns that skill directory. */
export function writeSkill(root: string, rel: string, name: string, body = `body of ${name}`, description?: string): string {
  const dir = join(root, rel);
  mkdirSync(dir, { recursive: true });
  const desc = description === undefined ? "" : `description: ${description}\n`;
  writeFileSync(join(dir, "SKILL.md"), `---\nname: ${name}\n${desc}---\n${body}\n`);
  return dir;
}

export function localDir(path: string): SkillDir {
  return { path, source: "local", sourceKind: "local" };
}

export function agentDef(skills: string[] = [], name = "crab"): AgentDefinition {
  return { ...DEFAULT_AGENT_SETTINGS, name, skills, systemPrompt: "", toolWhitelist: [] };
}

export function toolCtx(skills: string[] = []): ToolCallContext {
  return { agent: "crab", session: 1n, signal: new AbortController().signal, cwd: tmpdir(), streaming: false, agentDef: agentDef(skills) };
}
