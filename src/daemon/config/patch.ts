// Rewriting a TOML document into another one by the smallest text edits —
// changed keys replaced in place, removed ones cut, new ones added — so that
// comments and layout survive a whole-config replacement (SetConfig).
import { parse, stringify } from "smol-toml";
import { removeKey, setKey, setTable } from "./table-edit.ts";
import { sameValue } from "./same-value.ts";

type Table = Record<string, unknown>;

const isTable = (v: unknown): v is Table => v !== null && typeof v === "object" && !Array.isArray(v);

function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function patchTable(text: string, before: Table, after: Table, path: string[]): string {
  for (const key of Object.keys(before)) {
    if (Object.hasOwn(after, key)) continue;
    text = isTable(before[key]) ? setTable(text, [...path, key], undefined) : removeKey(text, path, key);
  }
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (isTable(value) && isTable(old)) text = patchTable(text, old, value, [...path, key]);
    else if (isTable(value)) text = setTable(text, [...path, key], value);
    else if (!sameValue(plain(value), plain(old))) text = setKey(text, path, key, value);
  }
  return text;
}

/** `text` edited to hold exactly `next`; re-serialised only where an edit cannot be made in place. */
export function patchToml(text: string, next: Table): string {
  const before = plain(text.trim() === "" ? {} : parse(text)) as Table;
  const edited = patchTable(text, before, plain(next) as Table, []);
  try {
    if (sameValue(plain(parse(edited)), plain(next))) return edited;
  } catch {
    // fall through
  }
  return stringify(next) + "\n";
}
