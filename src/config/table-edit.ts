// Replacing or removing one (possibly nested) table of a TOML document while
// keeping the rest of the text — comments included — as it was (docs/config.md:
// targeted edits SHOULD leave the rest untouched). When the text edit would
// not give exactly the intended document, the whole document is re-serialised.
import { parse, stringify } from "smol-toml";
import { sameValue } from "./same-value.ts";

type Table = Record<string, unknown>;

/** The dotted key path of a `[a."b.c"]` header line, or undefined for other lines. */
export function headerPath(line: string): string[] | undefined {
  const m = /^\s*\[(?!\[)(.*)\]\s*(#.*)?$/.exec(line);
  if (!m) return undefined;
  const path: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(\.|$)/y;
  const rest = m[1];
  re.lastIndex = 0;
  let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const k = re.exec(rest);
    if (!k) return undefined;
    path.push(k[1] !== undefined ? (JSON.parse(`"${k[1]}"`) as string) : (k[2] ?? k[3]));
    pos = re.lastIndex;
    if (k[4] === "") break;
  }
  return path;
}

const startsWith = (path: string[], prefix: string[]) => prefix.every((p, i) => path[i] === p);

/**
 * Sets table `path` to `value` (or removes it when undefined). Its old
 * header and sub-tables are cut out; the new table goes at the end.
 */
export function setTable(text: string, path: string[], value: Table | undefined): string {
  return trySetTable(text, path, value) ?? reserialised(text, path, value);
}

/** The document re-serialised with table `path` set or removed: what an edit falls back to. */
function reserialised(text: string, path: string[], value: Table | undefined): string {
  const { expected, table } = docAt(text, path.slice(0, -1));
  if (value === undefined) delete table[path[path.length - 1]];
  else table[path[path.length - 1]] = value;
  return stringify(expected) + "\n";
}

/** setTable as a text edit only: undefined when the edit would not give the intended document. */
export function trySetTable(text: string, path: string[], value: Table | undefined): string | undefined {
  const doc = (text.trim() === "" ? {} : parse(text)) as Table;
  const expected = JSON.parse(JSON.stringify(doc)) as Table;
  let parent: Table = expected;
  for (const key of path.slice(0, -1)) {
    if (typeof parent[key] !== "object" || parent[key] === null) parent[key] = {};
    parent = parent[key] as Table;
  }
  const leaf = path[path.length - 1];
  if (value === undefined) delete parent[leaf];
  else parent[leaf] = value;

  const kept: string[] = [];
  let dropping = false;
  let insertAt = -1; // where the old table stood: the new one takes its place
  // Comments after a dropped table's last key belong to whatever header follows.
  let trailing: string[] = [];
  for (const line of text.split("\n")) {
    const header = line.trimStart().startsWith("[") ? headerPath(line) : undefined;
    if (header) {
      const wasDropping = dropping;
      dropping = startsWith(header, path);
      if (dropping && insertAt < 0) insertAt = kept.length;
      if (wasDropping && !dropping) kept.push(...trailing);
      trailing = [];
    }
    if (!dropping) kept.push(line);
    else if (/^\s*(#.*)?$/.test(line)) trailing.push(line);
    else trailing = [];
  }
  if (value !== undefined) {
    let nested: Table = value;
    for (const key of [...path].reverse()) nested = { [key]: nested };
    const block = stringify(nested).trimEnd().split("\n");
    if (insertAt >= 0) kept.splice(insertAt, 0, ...block, "");
    else kept.push("", ...block);
  }
  const edited = kept.join("\n").replace(/\n*$/, "\n");
  try {
    const got = JSON.parse(JSON.stringify(parse(edited))) as Table;
    // Removing the last sub-table may also drop its implicit parent ([agents] of [agents.x]).
    if (sameValue(got, expected) || (value === undefined && sameValue(got, pruneEmpty(expected, path)))) {
      return edited;
    }
  } catch {
    // fall through: not a valid edit
  }
  return undefined;
}

/** `doc` without the tables along `path` that are left empty. */
function pruneEmpty(doc: Table, path: string[]): Table {
  const copy = JSON.parse(JSON.stringify(doc)) as Table;
  for (let depth = path.length - 1; depth > 0; depth--) {
    let parent: Table = copy;
    for (const key of path.slice(0, depth - 1)) parent = (parent[key] ?? {}) as Table;
    const key = path[depth - 1];
    const table = parent[key];
    if (typeof table === "object" && table !== null && Object.keys(table).length === 0) delete parent[key];
  }
  return copy;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The edited text when it gives exactly `expected`, else undefined. */
export function verified(edited: string, expected: Table): string | undefined {
  try {
    if (sameValue(JSON.parse(JSON.stringify(parse(edited))), expected)) return edited;
  } catch {
    // not a valid edit
  }
  return undefined;
}

/** The parsed document, a copy of it, and the (created) table at `path` in the copy. */
function docAt(text: string, path: string[]): { expected: Table; table: Table } {
  const expected = JSON.parse(JSON.stringify(text.trim() === "" ? {} : parse(text))) as Table;
  let table: Table = expected;
  for (const k of path) {
    if (typeof table[k] !== "object" || table[k] === null) table[k] = {};
    table = table[k] as Table;
  }
  return { expected, table };
}

/** Index of the line assigning `key` directly in table `path` (root: path []), and of that table's header. */
function findKey(lines: string[], path: string[], key: string): { line: number; header: number } {
  const assigns = new RegExp(`^\\s*(?:${escapeRegExp(key)}|"${escapeRegExp(key)}"|'${escapeRegExp(key)}')\\s*=`);
  let inTable = path.length === 0;
  let header = -1;
  for (let i = 0; i < lines.length; i++) {
    const h = lines[i].trimStart().startsWith("[") ? headerPath(lines[i]) : undefined;
    if (h) {
      inTable = h.length === path.length && startsWith(h, path);
      if (inTable) header = i;
      continue;
    }
    if (inTable && assigns.test(lines[i])) return { line: i, header };
  }
  return { line: -1, header };
}

/**
 * Sets `key = value` inside table `path`: the key's line is replaced in place
 * (keeping its indentation and trailing comment), or added right after the
 * table's header (the header is added if missing).
 */
export function setKey(text: string, path: string[], key: string, value: unknown): string {
  const { expected, table } = docAt(text, path);
  table[key] = value;
  return trySetKey(text, path, key, value) ?? stringify(expected) + "\n";
}

/** setKey as a text edit only: undefined when the edit would not give the intended document. */
export function trySetKey(text: string, path: string[], key: string, value: unknown): string | undefined {
  const { expected, table } = docAt(text, path);
  table[key] = value;
  const assignment = stringify({ [key]: value }).trim();
  const lines = text.split("\n");
  const { line, header } = findKey(lines, path, key);
  if (line >= 0) {
    const indent = /^\s*/.exec(lines[line])![0];
    const comment = /\s+#[^"'\n]*$/.exec(lines[line])?.[0] ?? "";
    lines[line] = indent + assignment + comment;
  } else if (header >= 0 || path.length === 0) {
    lines.splice(header + 1, 0, assignment);
  }
  let edited = lines.join("\n");
  if (line < 0 && header < 0 && path.length > 0) {
    edited = `${edited.replace(/\n*$/, "\n")}\n[${path.join(".")}]\n${assignment}\n`;
  }
  return verified(edited, expected);
}

/** Removes `key` from table `path` as a text edit, keeping everything else as written: undefined when the edit would not give the intended document. */
export function tryRemoveKey(text: string, path: string[], key: string): string | undefined {
  const { expected, table } = docAt(text, path);
  if (!Object.hasOwn(table, key)) return text;
  delete table[key];
  const lines = text.split("\n");
  const { line } = findKey(lines, path, key);
  if (line >= 0) lines.splice(line, 1);
  return verified(lines.join("\n"), expected);
}
