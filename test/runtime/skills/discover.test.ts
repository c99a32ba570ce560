// Discovery, the registry and ListSkills (docs/memory.md#discovery, docs/memory.md#listing-skills).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSkillDirs, discoverSkills, externalSource, listSkillInfos, SkillRegistry } from "../../../src/runtime/skills/discover.ts";
import type { SkillDir } from "../../../src/runtime/skills/dirs.ts";
import type { Skill } from "../../../src/runtime/skills/skill-file.ts";
import { localDir, removeTempDirs, tempDir, writeSkill } from "./fixtures.ts";
import type { RuntimeLog } from "../../../src/base/runtime-log.ts";

afterAll(removeTempDirs);

const names = (r: SkillRegistry) => r.list().map((s) => s.name);
const noWarn: RuntimeLog = {
  warn(msg) {
    throw new Error(`unexpected warning: ${msg}`);
  },
};

test("two skills in one directory are both loaded", () => {
  const root = tempDir();
  writeSkill(root, "alpha", "alpha");
  writeSkill(root, "beta", "beta");
  expect(names(discoverSkills([localDir(root)], [], noWarn))).toEqual(["alpha", "beta"]);
});

test("skills of several directories load in search order; missing directories are skipped", () => {
  const a = tempDir();
  const b = tempDir();
  writeSkill(a, "zed", "zed");
  writeSkill(b, "able", "able");
  const dirs = [localDir(a), localDir(join(a, "missing")), localDir(b)];
  expect(names(discoverSkills(dirs, [], noWarn))).toEqual(["zed", "able"]);
});

test("empty or no directories yield no skills", () => {
  expect(discoverSkills([localDir(tempDir())], [], noWarn).size).toBe(0);
  expect(discoverSkills([], [], noWarn).size).toBe(0);
});

test("the first directory wins a name clash, with a warning", () => {
  const a = tempDir();
  const b = tempDir();
  writeSkill(a, "dup", "dup", "first body", "first");
  writeSkill(b, "dup", "dup", "second body", "second");
  const warnings: string[] = [];
  const reg = discoverSkills([localDir(a), { path: b, source: "claude", sourceKind: "external" }], [], { warn: (m) => warnings.push(m) });
  expect(reg.list()).toHaveLength(1);
  expect(reg.get("dup")?.description).toBe("first");
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("dup");
  expect(warnings[0]).toContain("claude");
});

test("hidden directories are skipped at any depth", () => {
  const root = tempDir();
  writeSkill(root, ".hidden", "hidden");
  writeSkill(root, "group/.secret", "secret");
  writeSkill(root, "visible", "visible");
  expect(names(discoverSkills([localDir(root)], [], noWarn))).toEqual(["visible"]);
});

test("nested skills are found; a skill directory is not descended", () => {
  const root = tempDir();
  writeSkill(root, "team/tools/deep", "deep");
  writeSkill(root, "outer", "outer");
  writeSkill(root, "outer/inner", "inner");
  expect(names(discoverSkills([localDir(root)], [], noWarn))).toEqual(["outer", "deep"]);
});

test("disabled skills are not loaded", () => {
  const root = tempDir();
  writeSkill(root, "keep", "keep");
  writeSkill(root, "drop", "drop");
  expect(names(discoverSkills([localDir(root)], ["drop"], noWarn))).toEqual(["keep"]);
});

test("a broken SKILL.md is a warning and the others still load", () => {
  const root = tempDir();
  mkdirSync(join(root, "broken"));
  writeFileSync(join(root, "broken", "SKILL.md"), "no front matter");
  writeSkill(root, "good", "good");
  const warnings: string[] = [];
  expect(names(discoverSkills([localDir(root)], [], { warn: (m) => warnings.push(m) }))).toEqual(["good"]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("missing front matter");
});

test("a symlinked skill directory is followed, a link cycle is not looped", () => {
  const root = tempDir();
  const elsewhere = tempDir();
  writeSkill(elsewhere, "linked", "linked");
  symlinkSync(join(elsewhere, "linked"), join(root, "linked"));
  mkdirSync(join(root, "loop"));
  symlinkSync(root, join(root, "loop", "back"));
  expect(names(discoverSkills([localDir(root)], [], noWarn))).toEqual(["linked"]);
});

// The registry (docs/memory.md#discovery), as upstream's unit tests check it.
const skill = (name: string, body = "b"): Skill => ({ name, description: "", allowedTools: [], metadata: {}, body });

test("registry: new is empty; add, contains, list", () => {
  const r = new SkillRegistry();
  expect(r.size).toBe(0);
  r.add(skill("a"));
  expect(r.contains("a")).toBe(true);
  expect(r.contains("b")).toBe(false);
  r.add(skill("b"));
  r.add(skill("c"));
  expect(names(r)).toEqual(["a", "b", "c"]);
});

test("registry: add does not de-duplicate, upsert does", () => {
  const r = new SkillRegistry();
  r.add(skill("a"));
  r.add(skill("a"));
  expect(r.size).toBe(2);
  const u = new SkillRegistry();
  u.upsert(skill("a", "old"));
  u.upsert(skill("b"));
  u.upsert(skill("a", "new"));
  expect(names(u)).toEqual(["a", "b"]);
  expect(u.get("a")?.body).toBe("new");
});

test("ListSkills: every skill with source and enabled flag, first name wins, disabled included", () => {
  const home = tempDir();
  const osHome = tempDir();
  const dirs = defaultSkillDirs(home, osHome);
  writeSkill(join(home, "local", "skills"), "mine", "mine");
  writeSkill(join(osHome, ".claude", "skills"), "review", "review");
  writeSkill(join(osHome, ".claude", "skills"), "mine", "mine");
  writeSkill(join(osHome, ".codex", "skills"), "off", "off");
  writeSkill(join(osHome, ".codex", "skills"), ".hidden", "hidden");
  expect(listSkillInfos(dirs, ["off"])).toEqual([
    { name: "mine", enabled: true, source: "local", sourceKind: "local" },
    { name: "review", enabled: true, source: "claude", sourceKind: "external" },
    { name: "off", enabled: false, source: "codex", sourceKind: "external" },
  ]);
});

test("defaultSkillDirs: local first, then the three external directories", () => {
  const dirs: SkillDir[] = defaultSkillDirs("/h", "/u");
  expect(dirs).toEqual([
    { path: "/h/local/skills", source: "local", sourceKind: "local" },
    { path: "/u/.claude/skills", source: "claude", sourceKind: "external" },
    { path: "/u/.codex/skills", source: "codex", sourceKind: "external" },
    { path: "/u/.openclaw/skills", source: "openclaw", sourceKind: "external" },
  ]);
});

test("externalSource: a hidden parent names the source, anything else is external", () => {
  expect(externalSource("/home/u/.claude/skills")).toBe("claude");
  expect(externalSource("/opt/shared/skills")).toBe("external");
});
