// Rewriting a TOML document into another one by the smallest text edits —
// changed keys replaced in place, removed ones cut, new ones added — so that
// comments and layout survive a whole-config replacement (SetConfig).
import { parse, stringify } from "smol-toml";
import { tryRemoveKey, trySetKey, trySetTable } from "./table-edit.ts";
import { editInPlace, insertDotted } from "./value-edit.ts";
import { sameValue } from "./same-value.ts";

type Table = Record<string, unknown>;

const isTable = (v: unknown): v is Table => v !== null && typeof v === "object" && !Array.isArray(v);

function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** `doc` with the value at `path` set, or removed when `value` is undefined. */
function withValue(doc: Table, path: string[], value: unknown): Table {
  const copy = plain(doc) as Table;
  let table = copy;
  for (const key of path.slice(0, -1)) {
    if (!isTable(table[key])) table[key] = {};
    table = table[key] as Table;
  }
  const leaf = path[path.length - 1]!;
  if (value === undefined) delete table[leaf];
  else table[leaf] = plain(value);
  return copy;
}

/**
 * One change as a text edit: in place where the value is written (its own
 * line, a dotted key, an inline table, several lines), else by the header
 * edits, else as a dotted key under the nearest header. Undefined when no edit works.
 */
function editOne(text: string, doc: Table, path: string[], value: unknown, old: unknown): { text: string; doc: Table } | undefined {
  const expected = withValue(doc, path, value);
  const parent = path.slice(0, -1);
  const key = path[path.length - 1]!;
  const attempts: (() => string | undefined)[] = [() => editInPlace(text, path, expected)];
  if (value === undefined) {
    attempts.push(() => (isTable(old) ? trySetTable(text, path, undefined) : tryRemoveKey(text, parent, key)));
  } else if (isTable(value)) {
    attempts.push(
      () => trySetTable(text, path, value),
      () => insertDotted(text, path, expected),
    );
  } else {
    // A table becoming a plain value: its header goes first.
    const base = isTable(old) ? trySetTable(text, path, undefined) : text;
    if (base !== undefined) attempts.push(() => trySetKey(base, parent, key, value));
    attempts.push(() => insertDotted(text, path, expected));
  }
  for (const attempt of attempts) {
    const edited = attempt();
    if (edited !== undefined) return { text: edited, doc: expected };
  }
  return undefined;
}

function patchTable(state: { text: string; doc: Table }, before: Table, after: Table, path: string[]): boolean {
  const apply = (p: string[], value: unknown, old: unknown) => {
    const next = editOne(state.text, state.doc, p, value, old);
    if (!next) return false;
    Object.assign(state, next);
    return true;
  };
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key) && !apply([...path, key], undefined, before[key])) return false;
  }
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (isTable(value) && isTable(old)) {
      if (!patchTable(state, old, value, [...path, key])) return false;
    } else if (!sameValue(plain(value), plain(old)) && !apply([...path, key], value, old)) return false;
  }
  return true;
}

/** `text` edited to hold exactly `next`; re-serialised only where an edit cannot be made in place. */
export function patchToml(text: string, next: Table): string {
  const before = plain(text.trim() === "" ? {} : parse(text)) as Table;
  const state = { text, doc: before };
  if (patchTable(state, before, plain(next) as Table, [])) {
    try {
      if (sameValue(plain(parse(state.text)), plain(next))) return state.text;
    } catch {
      // fall through
    }
  }
  // Only for a text none of the edits can follow: the document written anew.
  return stringify(next) + "\n";
}
