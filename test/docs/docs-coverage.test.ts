// docs/protocol.md and docs/config.md are the reference for users and client
// authors: every variant of proto/crabtalk.proto and every key of the config
// schema must be documented there. Both lists are read from the sources, so a
// variant or key added later fails this test until it is documented.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/daemon.ts";
import { schemaTables } from "../../src/config/schema-keys.ts";

const read = (path: string) => readFileSync(join(REPO, path), "utf8");

/** `[tag, field, message]` of each field of `oneof msg` in message `name`. */
function oneofVariants(proto: string, name: string): [number, string, string][] {
  const body = new RegExp(`message ${name} \\{([\\s\\S]*?)\\n\\}`).exec(proto)?.[1] ?? "";
  const oneof = /oneof msg \{([\s\S]*?)\}/.exec(body)?.[1] ?? "";
  return [...oneof.matchAll(/^\s*(\w+)\s+(\w+)\s*=\s*(\d+);/gm)].map((m) => [Number(m[3]), m[2], m[1]]);
}

/** Markdown sections by heading text, each with the text up to the next heading of its level or above. */
function sections(markdown: string): Map<string, string> {
  const lines = markdown.split("\n");
  const out = new Map<string, string>();
  lines.forEach((line, i) => {
    const h = /^(#+)\s+(.*)$/.exec(line);
    if (!h) return;
    let end = i + 1;
    while (end < lines.length && !(/^(#+)\s/.exec(lines[end]) && /^(#+)/.exec(lines[end])![1].length <= h[1].length)) end++;
    out.set(h[2].trim(), lines.slice(i + 1, end).join("\n"));
  });
  return out;
}

// A variant counts as documented by a row `| tag | \`field\` | \`Message\` | … |`
// in any table of docs/protocol.md (the "Client messages" and "Daemon messages" tables hold them all); a
// config key by a row `| \`key\` | … |` under the heading naming its table.
test("every ClientMessage and ServerMessage variant is in docs/protocol.md with its tag and message", () => {
  const proto = read("proto/crabtalk.proto");
  const doc = read("docs/protocol.md");
  const rows = new Set(
    doc
      .split("\n")
      .filter((l) => l.startsWith("|"))
      .map((l) =>
        l
          .split("|")
          .map((c) => c.trim())
          .join("|"),
      ),
  );
  const missing: string[] = [];
  for (const envelope of ["ClientMessage", "ServerMessage"]) {
    const variants = oneofVariants(proto, envelope);
    expect(variants.length).toBeGreaterThan(20);
    for (const [tag, field, message] of variants) {
      const documented = [...rows].some((r) => r.startsWith(`|${tag}|\`${field}\`|\`${message}\`|`));
      if (!documented) missing.push(`${envelope}.${field} = ${tag} (${message})`);
    }
  }
  expect(missing).toEqual([]);
});

test("every key of the config schema is in docs/config.md, under its table's heading", () => {
  const bySection = sections(read("docs/config.md"));
  const sectionOf = (path: string) => [...bySection.entries()].find(([h]) => h.includes(`\`[${path}]\``))?.[1];
  const tables = schemaTables();
  expect(tables.map((t) => t.path)).toContain("system.crab");
  const missing: string[] = [];
  for (const { path, keys } of tables) {
    let text = sectionOf(path);
    if (text === undefined) {
      missing.push(`[${path}]`);
      continue;
    }
    // "same keys as `[system.crab]`" documents the keys where they are listed.
    const alias = /same keys as `\[([^\]]+)\]`/.exec(text)?.[1];
    if (alias) text += sectionOf(alias) ?? "";
    for (const key of keys) if (!text.includes(`| \`${key}\` |`)) missing.push(`${path}.${key}`);
  }
  expect(missing).toEqual([]);
});

test("README and docs link only to files inside the repository", () => {
  for (const file of ["README.md", "docs/protocol.md", "docs/config.md"]) {
    expect({ file, outside: read(file).match(/\.\.\/shared[^\s)`]*/g) ?? [] }).toEqual({ file, outside: [] });
  }
  const readme = read("README.md");
  expect(readme).toContain("docs/protocol.md");
  expect(readme).toContain("docs/config.md");
});
