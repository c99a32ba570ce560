// Edits of one value of a TOML text that no header-based edit can make: the
// value written as a dotted key, inside an inline table (`prices = { m = {…} }`,
// as docs/usage.md shows), or over several lines. Only the value's own text is
// replaced, so comments and layout stay (issue 19). Each edit is verified by
// re-parsing; undefined means "not possible in place".
import { inlineValue, scanToml, tomlKey, type Layout } from "./toml-spans.ts";
import { verified } from "./table-edit.ts";

type Table = Record<string, unknown>;

const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.length <= path.length && prefix.every((p, i) => path[i] === p);

function valueAt(doc: Table, path: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const p of path) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur) || !Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Table)[p];
  }
  return cur;
}

function layoutOf(text: string): Layout | undefined {
  try {
    return scanToml(text);
  } catch {
    return undefined;
  }
}

/**
 * `text` with the value at `path` made what `expected` (the whole document
 * after the change) holds there, by rewriting the assignment that holds it:
 * its own, or the inline table's it sits in. A removed key loses its line.
 */
export function editInPlace(text: string, path: readonly string[], expected: Table): string | undefined {
  const layout = layoutOf(text);
  const holder = layout?.assignments.find((a) => startsWith(path, a.path));
  if (!holder) return undefined;
  const value = valueAt(expected, holder.path);
  if (value !== undefined) {
    return verified(text.slice(0, holder.valueStart) + inlineValue(value) + text.slice(holder.valueEnd), expected);
  }
  // Removed: only a key alone on its line(s) is cut, with its comment.
  if (text.slice(holder.lineStart, holder.keyStart).trim() !== "") return undefined;
  const nl = text.indexOf("\n", holder.valueEnd);
  const end = nl < 0 ? text.length : nl + 1;
  if (!/^\s*(#.*)?$/.test(text.slice(holder.valueEnd, nl < 0 ? text.length : nl))) return undefined;
  return verified(text.slice(0, holder.lineStart) + text.slice(end), expected);
}

/**
 * A new key (or table) written as a dotted key under the nearest table header
 * above it (`crab.thinking = true` under `[system]` when `[system.crab]` is
 * written that way), for where a new `[table]` header would clash.
 */
export function insertDotted(text: string, path: readonly string[], expected: Table): string | undefined {
  const layout = layoutOf(text);
  if (!layout) return undefined;
  const value = valueAt(expected, path);
  if (value === undefined) return undefined;
  let at = 0;
  let depth = 0;
  for (const h of layout.headers) {
    if (!h.array && h.path.length > depth && h.path.length < path.length && startsWith(path, h.path)) [at, depth] = [h.bodyStart, h.path.length];
  }
  const line = `${path.slice(depth).map(tomlKey).join(".")} = ${inlineValue(value)}\n`;
  const before = text.slice(0, at);
  return verified(before + (before === "" || before.endsWith("\n") ? "" : "\n") + line + text.slice(at), expected);
}
