// The `skill` tool (docs/tools.md#skill) and its scope enforcement (docs/agents.md#scope).
import { afterAll, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolOutcome } from "../../../src/agent/events.ts";
import { discoverSkills } from "../../../src/runtime/skills/discover.ts";
import type { SkillDir } from "../../../src/runtime/skills/dirs.ts";
import type { SkillRegistry } from "../../../src/runtime/skills/registry.ts";
import { skillTool } from "../../../src/runtime/tools/skill.ts";
import { ToolRegistry } from "../../../src/runtime/tools/registry.ts";
import { localDir, removeTempDirs, tempDir, toolCtx, writeSkill } from "./fixtures.ts";
import { SILENT_LOG } from "../../../src/base/runtime-log.ts";

let root: string;
let dirs: SkillDir[];
let registry: SkillRegistry;
let tools: ToolRegistry;

beforeEach(() => {
  root = tempDir();
  writeSkill(root, "greet", "greet", "Say ahoy.", "Greets people");
  writeSkill(root, "audit", "audit", "Check everything.", "Security AUDIT of a repo");
  writeSkill(root, "off", "off", "Disabled body.", "switched off");
  dirs = [localDir(join(root, "missing")), localDir(root)];
  registry = discoverSkills(dirs, ["off"], SILENT_LOG);
  tools = new ToolRegistry();
  tools.register(skillTool({ dirs, disabled: ["off"], registry }));
});
afterAll(removeTempDirs);

const call = (name: string, scope: string[] = []): Promise<ToolOutcome> =>
  tools.dispatch({ id: "1", name: "skill", arguments: JSON.stringify({ name }) }, toolCtx(scope));

test("an exact name loads the body and names the skill directory", async () => {
  expect(await call("greet")).toEqual({ output: `Say ahoy.\n\nSkill directory: ${join(root, "greet")}`, isError: false });
});

test("a name outside the agent's scope is refused", async () => {
  expect(await call("greet", ["audit"])).toEqual({ output: "skill not available: greet", isError: true });
  expect((await call("audit", ["audit"])).output).toStartWith("Check everything.");
});

test("names that could leave the skill directory are refused", async () => {
  for (const name of ["../etc", "a/b", "a\\b", ".."]) {
    expect(await call(name)).toEqual({ output: `invalid skill name: ${name}`, isError: true });
  }
});

test("an edited file is read fresh and replaces the registry entry", async () => {
  writeSkill(root, "greet", "greet", "Say hello instead.", "Greets politely");
  expect((await call("greet")).output).toStartWith("Say hello instead.");
  expect(registry.get("greet")?.description).toBe("Greets politely");
  expect(registry.list().filter((s) => s.name === "greet")).toHaveLength(1);
});

test("a skill added after discovery loads by exact name and then shows in listings", async () => {
  writeSkill(root, "late", "late", "Late body.", "came later");
  expect((await call("late")).output).toStartWith("Late body.");
  expect((await call("")).output).toContain("late: came later");
});

test("a file that no longer parses is a failure saying why", async () => {
  writeFileSync(join(root, "greet", "SKILL.md"), "plain text");
  const out = await call("greet");
  expect(out.isError).toBe(true);
  expect(out.output).toStartWith("failed to parse skill: missing front matter");
});

test('"" lists every skill in discovery order as name: description', async () => {
  expect(await call("")).toEqual({ output: "audit: Security AUDIT of a repo\ngreet: Greets people", isError: false });
});

test("a non-exact name lists case-insensitive matches on name or description", async () => {
  expect((await call("Audit")).output).toBe("audit: Security AUDIT of a repo");
  expect((await call("PEOPLE")).output).toBe("greet: Greets people");
  expect((await call("e")).output).toBe("audit: Security AUDIT of a repo\ngreet: Greets people");
});

test("the listing shows only skills in the agent's scope", async () => {
  expect((await call("", ["audit"])).output).toBe("audit: Security AUDIT of a repo");
});

test("a disabled skill is neither loaded nor listed", async () => {
  expect(await call("off")).toEqual({ output: "no skills found", isError: false });
  expect((await call("")).output).not.toContain("off");
});

test("nothing matching is 'no skills found', not an error", async () => {
  expect(await call("zzz")).toEqual({ output: "no skills found", isError: false });
});
