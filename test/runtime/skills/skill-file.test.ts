// SKILL.md parsing (docs/memory.md#skillmd).
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseSkill, readSkillFile, SkillParseError } from "../../../src/runtime/skills/skill-file.ts";
import { removeTempDirs, tempDir } from "./fixtures.ts";

afterAll(removeTempDirs);

test("name, description and body", () => {
  const s = parseSkill("---\nname: review\ndescription: Review a diff\n---\n\n# Review\nLook closely.\n");
  expect(s.name).toBe("review");
  expect(s.description).toBe("Review a diff");
  expect(s.body).toBe("# Review\nLook closely.");
  expect(s.allowedTools).toEqual([]);
  expect(s.metadata).toEqual({});
});

test("leading whitespace and CRLF line endings are tolerated", () => {
  const s = parseSkill("\n  \r\n---\r\nname: crlf\r\ndescription: d\r\n---\r\nline one\r\nline two\r\n");
  expect(s.name).toBe("crlf");
  expect(s.description).toBe("d");
  expect(s.body).toBe("line one\nline two");
});

test("description is optional", () => {
  expect(parseSkill("---\nname: bare\n---\nx").description).toBe("");
});

test("allowed-tools as a list", () => {
  expect(parseSkill("---\nname: a\nallowed-tools:\n  - bash\n  - mcp\n---\n").allowedTools).toEqual(["bash", "mcp"]);
});

test("allowed-tools as one string split on commas and spaces", () => {
  expect(parseSkill("---\nname: a\nallowed-tools: bash, mcp  skill,recall\n---\n").allowedTools).toEqual(["bash", "mcp", "skill", "recall"]);
});

test("license, compatibility and metadata are parsed", () => {
  const s = parseSkill("---\nname: a\nlicense: MIT\ncompatibility: any\nmetadata:\n  author: me\n  version: 1.2\n---\n");
  expect(s.license).toBe("MIT");
  expect(s.compatibility).toBe("any");
  expect(s.metadata).toEqual({ author: "me", version: "1.2" });
});

test("no front matter is a clear error", () => {
  expect(() => parseSkill("# just markdown")).toThrow(/missing front matter/);
  expect(() => parseSkill("# just markdown")).toThrow(SkillParseError);
});

test("unclosed front matter is an error, not a skill made of the whole file", () => {
  expect(() => parseSkill("---\nname: a\nbody without closing line\n")).toThrow(/missing front matter/);
});

test("a missing or empty name is an error naming the field", () => {
  expect(() => parseSkill("---\ndescription: x\n---\nbody")).toThrow(/name/);
  expect(() => parseSkill("---\nname: ''\n---\nbody")).toThrow(/name/);
  expect(() => parseSkill("---\n---\nbody")).toThrow(/name/);
});

test("broken YAML is an error saying so", () => {
  expect(() => parseSkill("---\nname: [unclosed\n---\n")).toThrow(/invalid YAML front matter/);
});

test("a wrongly typed field is an error naming it", () => {
  expect(() => parseSkill("---\nname: a\nmetadata: [1, 2]\n---\n")).toThrow(/metadata/);
});

test("readSkillFile reads from disk and re-reads after an edit", () => {
  const file = join(tempDir(), "SKILL.md");
  writeFileSync(file, "---\nname: a\n---\nfirst");
  expect(readSkillFile(file).body).toBe("first");
  writeFileSync(file, "---\nname: a\n---\nsecond");
  expect(readSkillFile(file).body).toBe("second");
});
