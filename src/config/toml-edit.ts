/**
 * Small text-level edits of TOML documents that keep the user's comments
 * (docs/config.md: targeted edits SHOULD leave the rest untouched). Each edit
 * is checked by re-parsing; when the text edit would not give exactly the
 * intended document (inline tables, dotted keys, odd layouts) the whole
 * document is re-serialised instead, which loses comments but not data.
 */
import { parse, stringify } from "smol-toml";
import { sameValue } from "./same-value.ts";

type Table = Record<string, unknown>;

/** Compare parsed documents regardless of prototypes (smol-toml uses null ones). */
function sameDocument(a: unknown, b: unknown): boolean {
  return sameValue(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

function parsesTo(text: string, expected: Table): boolean {
  try {
    return sameDocument(parse(text), expected);
  } catch {
    return false;
  }
}

const HEADER = /^\s*\[\[?\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)/;

/** First key of a `[a.b]` / `[[a.b]]` header line, or undefined for other lines. */
function headerRoot(line: string): string | undefined {
  const m = HEADER.exec(line);
  if (!m?.[1]) return undefined;
  const key = m[1];
  return key.startsWith('"') ? (JSON.parse(key) as string) : key.replace(/^'|'$/g, "");
}

/** Remove top-level tables `keys` (with their sub-tables) from a document. */
export function removeTables(text: string, keys: readonly string[]): string {
  const doc = parse(text) as Table;
  const expected: Table = { ...doc };
  for (const k of keys) delete expected[k];
  const kept: string[] = [];
  let dropping = false;
  for (const line of text.split("\n")) {
    const root = line.trimStart().startsWith("[") ? headerRoot(line) : undefined;
    if (root !== undefined) dropping = keys.includes(root);
    if (!dropping) kept.push(line);
  }
  const edited = kept.join("\n");
  return parsesTo(edited, expected) ? edited : stringify(expected);
}

/** Add (or replace empty) top-level tables at the end of a document. */
export function appendTables(text: string, tables: Table): string {
  const doc = text.trim() === "" ? {} : (parse(text) as Table);
  const expected: Table = { ...doc, ...tables };
  const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  const edited = text + sep + stringify(tables);
  return parsesTo(edited, expected) ? edited : stringify(expected);
}
