// The repository stands alone: comments cite its own docs, never documents
// that live elsewhere. Code cites a doc section as `docs/<file>.md#<anchor>`
// (the anchor GitHub gives the heading) or `docs/<file>.md "Heading"`, so
// every citation can be checked here: the file must exist and the heading too.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import ts from "typescript";
import { REPO } from "../support/daemon.ts";

const SCANNED = ["src", "test", "bench", "proto"];
const THIS_FILE = relative(REPO, import.meta.path);

/** Files the daemon reads or writes in a user's home, named in comments as domain words, not as documents. */
const DOMAIN_FILES = new Set(["Crab.md", "crab.md", "SKILL.md", "MEMORY.md", "memory.md", "user.md"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|proto)$/.test(name) ? [path] : [];
  });
}

const files = SCANNED.flatMap((d) => sourceFiles(join(REPO, d))).filter((f) => relative(REPO, f) !== THIS_FILE);
const text = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

/** The comments of a TypeScript file, found by the compiler's own scanner (strings and regexes are not comments). */
function tsComments(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, string>();
  const collect = (pos: number) => {
    for (const r of ts.getLeadingCommentRanges(source, pos) ?? []) seen.set(r.pos, source.slice(r.pos, r.end));
    for (const r of ts.getTrailingCommentRanges(source, pos) ?? []) seen.set(r.pos, source.slice(r.pos, r.end));
  };
  // Every comment sits before some node or after one (before a closing brace, at the end of the file).
  const visit = (node: ts.Node) => {
    collect(node.pos);
    collect(node.end);
    ts.forEachChild(node, visit);
  };
  collect(0);
  visit(sf);
  return [...seen.values()];
}

/** `// …` lines of a .proto file (it has no block comments). */
function protoComments(source: string): string[] {
  return source.split("\n").flatMap((l) => (l.includes("//") ? [l.slice(l.indexOf("//"))] : []));
}

function comments(file: string): string[] {
  const source = text.get(file)!;
  // Parsing is the slow part: a file that names no .md file has nothing to check.
  if (!source.includes(".md")) return [];
  return file.endsWith(".proto") ? protoComments(source) : tsComments(file, source);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to `-`; repeats get `-1`, `-2`, …. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = h[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Heading texts of a Markdown file (outside code fences). */
function headings(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.*?)\s*$/.exec(line);
    if (h) out.add(h[1]);
  }
  return out;
}

const docCache = new Map<string, string | undefined>();
function doc(path: string): string | undefined {
  if (!docCache.has(path)) {
    const full = join(REPO, path);
    docCache.set(path, existsSync(full) ? readFileSync(full, "utf8") : undefined);
  }
  return docCache.get(path);
}

test("no comment or test name cites the team's specs or a numbered section of a document outside the repository", () => {
  const found: string[] = [];
  for (const [file, source] of text) {
    source.split("\n").forEach((line, i) => {
      if (/daemon\.md|design\.md|peer[- ]tests|shared\/spec|\.\.\/shared|§/.test(line)) found.push(`${relative(REPO, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});

test("every .md file a comment in src/ or proto/ names exists in the repository", () => {
  const missing: string[] = [];
  let mentions = 0;
  for (const file of files) {
    const rel = relative(REPO, file);
    if (!rel.startsWith("src/") && !rel.startsWith("proto/")) continue;
    for (const comment of comments(file)) {
      for (const m of comment.matchAll(/(?<![\w.<>{}/-])((?:[\w.-]+\/)*[\w.-]*\w\.md)\b/g)) {
        const named = m[1];
        mentions++;
        if (DOMAIN_FILES.has(basename(named))) continue;
        if (existsSync(join(REPO, named)) || existsSync(join(dirname(file), named))) continue;
        missing.push(`${rel}: ${named}`);
      }
    }
  }
  expect(missing).toEqual([]);
  expect(mentions).toBeGreaterThan(100);
}, 60_000); // parses every source file with the TypeScript compiler: seconds, more on a loaded machine

test('every docs/<file>.md#anchor and docs/<file>.md "Heading" cited in src/, test/, bench/ or proto/ names a heading that exists', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const [file, source] of text) {
    const rel = relative(REPO, file);
    for (const m of source.matchAll(/\b(docs\/[\w-]+\.md)(?:#([\w-]+)|,? "([^"\n]+)")?/g)) {
      const [, path, anchor, heading] = m;
      const markdown = doc(path);
      if (markdown === undefined) {
        broken.push(`${rel}: ${path} does not exist`);
        continue;
      }
      checked++;
      if (anchor !== undefined && !anchors(markdown).has(anchor)) broken.push(`${rel}: ${path}#${anchor}: no such heading`);
      if (heading !== undefined && ![...headings(markdown)].some((h) => h === heading || h.replace(/`/g, "") === heading)) {
        broken.push(`${rel}: ${path} "${heading}": no such heading`);
      }
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(100);
});

test("links between the docs point at files and headings that exist", () => {
  const broken: string[] = [];
  const docs = readdirSync(join(REPO, "docs")).filter((n) => n.endsWith(".md"));
  for (const name of docs) {
    const markdown = doc(`docs/${name}`)!;
    for (const m of markdown.matchAll(/\]\(([^)\s]*?)(?:#([^)\s]+))?\)/g)) {
      const [, target, anchor] = m;
      if (/^[a-z]+:/.test(target)) continue; // http:, https:, mailto:
      const path = target === "" ? `docs/${name}` : relative(REPO, join(REPO, "docs", target));
      const linked = doc(path);
      if (linked === undefined) {
        if (!existsSync(join(REPO, path))) broken.push(`docs/${name}: ${target} does not exist`);
        continue;
      }
      if (anchor !== undefined && path.endsWith(".md") && !anchors(linked).has(anchor)) broken.push(`docs/${name}: ${target}#${anchor}: no such heading`);
    }
  }
  expect(broken).toEqual([]);
});
