// SKILL.md parsing (docs/memory.md#skillmd): YAML front matter, then the Markdown
// body that is the skill prompt.
import { existsSync, readFileSync } from "node:fs";
import { describeFile, isRegularFile } from "../file-kind.ts";
import type matter from "gray-matter";

/**
 * gray-matter (with js-yaml) is loaded by the first SKILL.md parsed, not at
 * start: evaluating it costs the daemon's start more than most of its own code.
 */
let grayMatter: typeof matter | undefined;
function loadMatter(): typeof matter {
  grayMatter ??= require("gray-matter") as typeof matter;
  return grayMatter;
}
import { z } from "zod";

export interface Skill {
  name: string;
  description: string;
  /** Parsed but not enforced (docs/memory.md#skillmd). */
  allowedTools: string[];
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  /** The skill prompt. */
  body: string;
}

export class SkillParseError extends Error {
  override name = "SkillParseError";
}

// YAML turns `2024-01-01` or `1.0` into dates and numbers; a user who wrote a
// scalar meant text, so scalars are taken as their text.
const text = z.union([z.string(), z.number(), z.boolean(), z.date()]).transform((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v)));

const frontMatter = z.object({
  name: text.pipe(z.string().trim().min(1, "must not be empty")),
  description: text.optional(),
  "allowed-tools": z.union([z.array(text), text]).optional(),
  license: text.optional(),
  compatibility: text.optional(),
  metadata: z.record(z.string(), text).optional(),
});

// Opening line, YAML (possibly empty), closing line. gray-matter alone would
// take an unclosed block as all front matter, hiding a broken file.
const FENCED = /^---[ \t]*\n(?:[\s\S]*?\n)?---[ \t]*(?:\n|$)/;

/** Parses SKILL.md text; throws SkillParseError with a message a user can act on. */
export function parseSkill(source: string): Skill {
  const normalized = source.replace(/\r\n?/g, "\n").trimStart();
  if (!FENCED.test(normalized)) {
    throw new SkillParseError("missing front matter: SKILL.md must start with a '---' line and close it with another '---' line");
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Options given so gray-matter does not keep every file text in its global cache.
    parsed = loadMatter()(normalized, {});
  } catch (err) {
    throw new SkillParseError(`invalid YAML front matter: ${(err as Error).message}`);
  }
  const data: unknown = parsed.data ?? {};
  const result = frontMatter.safeParse(data);
  if (!result.success) {
    const detail = result.error.issues
      .map((i) => {
        const field = i.path.join(".") || "front matter";
        return i.path[0] === "name" && i.code === "invalid_union" ? "name: required string" : `${field}: ${i.message}`;
      })
      .join("; ");
    throw new SkillParseError(`invalid front matter: ${detail}`);
  }
  const fm = result.data;
  return {
    name: fm.name,
    description: fm.description ?? "",
    allowedTools: splitTools(fm["allowed-tools"]),
    license: fm.license,
    compatibility: fm.compatibility,
    metadata: fm.metadata ?? {},
    body: parsed.content.trim(),
  };
}

/** Reads and parses a SKILL.md file; throws on a read or parse failure, and for a FIFO or device (never read: it would block). */
export function readSkillFile(path: string): Skill {
  if (existsSync(path) && !isRegularFile(path)) throw new Error(`it is ${describeFile(path)}, not a regular file`);
  return parseSkill(readFileSync(path, "utf8"));
}

function splitTools(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : value.split(/[\s,]+/);
  return items.map((t) => t.trim()).filter((t) => t !== "");
}
