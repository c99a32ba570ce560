// Slash-command preprocessing (docs/memory.md#slash-commands).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SkillDir } from "../../../src/runtime/skills/dirs.ts";
import { expandSlash } from "../../../src/runtime/skills/slash.ts";
import { localDir, removeTempDirs, tempDir, writeSkill } from "./fixtures.ts";

let dirs: SkillDir[];
let first: string;

beforeAll(() => {
  first = tempDir();
  const second = tempDir();
  writeSkill(first, "greet", "greet", "Say ahoy.");
  writeSkill(first, "broken-first", "x");
  writeFileSync(join(first, "broken-first", "SKILL.md"), "not a skill");
  writeSkill(second, "broken-first", "broken-first", "from the second directory");
  writeSkill(second, "audit", "audit", "Check everything.");
  dirs = [localDir(first), localDir(second)];
});
afterAll(removeTempDirs);

const expand = (content: string, scope: string[] = [], disabled: string[] = []) => expandSlash(content, { dirs, disabled, scope });

test("a bare command becomes the skill block", () => {
  expect(expand("/greet")).toBe('<skill name="greet">\nSay ahoy.\n</skill>');
});

test("the remainder comes first, then a blank line and the block", () => {
  expect(expand("/greet   the crew")).toBe('the crew\n\n<skill name="greet">\nSay ahoy.\n</skill>');
});

test("leading whitespace before the slash is ignored", () => {
  expect(expand("  \n/audit now")).toBe('now\n\n<skill name="audit">\nCheck everything.\n</skill>');
});

test("the name is the longest [a-z0-9-] run; the rest is the remainder", () => {
  expect(expand("/greet,please")).toBe(',please\n\n<skill name="greet">\nSay ahoy.\n</skill>');
});

test("no slash, an empty name or an unknown skill leaves the message unchanged", () => {
  expect(expand("greet me")).toBe("greet me");
  expect(expand("/ greet")).toBe("/ greet");
  expect(expand("/Greet")).toBe("/Greet");
  expect(expand("/nosuchskill here")).toBe("/nosuchskill here");
  expect(expand("  /nosuchskill")).toBe("  /nosuchskill");
});

test("a skill outside the agent's scope is not expanded", () => {
  expect(expand("/greet x", ["audit"])).toBe("/greet x");
  expect(expand("/audit x", ["audit"])).toBe('x\n\n<skill name="audit">\nCheck everything.\n</skill>');
});

test("a disabled skill is not expanded", () => {
  expect(expand("/greet x", [], ["greet"])).toBe("/greet x");
});

test("the first directory whose file parses wins", () => {
  expect(expand("/broken-first")).toBe('<skill name="broken-first">\nfrom the second directory\n</skill>');
});

test("the file is read fresh on every expansion", () => {
  writeSkill(first, "fresh", "fresh", "version one");
  expect(expand("/fresh")).toContain("version one");
  writeSkill(first, "fresh", "fresh", "version two");
  expect(expand("/fresh")).toContain("version two");
});
