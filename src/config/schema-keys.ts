// The shape of config.toml read off the zod schema: which tables and keys
// exist and what type each key takes. Used to type `config set KEY VALUE`,
// to warn about unknown keys with the closest known name, and by the docs test.
import type { z } from "zod";
import { configSchema } from "./schema.ts";

/** `number` takes decimals (US dollars); `integer` only whole numbers (`.int()` in the schema). */
type KeyType = "string" | "integer" | "number" | "boolean" | "strings";

type SchemaNode =
  | { kind: "table"; fields: Record<string, SchemaNode> }
  /** `[provider.<name>]`, `[env]`: any key, each holding `value`. */
  | { kind: "map"; value: SchemaNode }
  | { kind: "key"; type: KeyType; values?: readonly string[] };

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, string>;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
};

const def = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Strips defaults, optionals and transforms down to the schema that reads the input. */
function unwrap(schema: z.ZodType): Def {
  for (;;) {
    const d = def(schema);
    if (d.innerType) schema = d.innerType;
    else if (d.type === "pipe" && d.in) schema = d.in;
    else return d;
  }
}

function node(schema: z.ZodType): SchemaNode {
  const d = unwrap(schema);
  switch (d.type) {
    case "object":
      return { kind: "table", fields: Object.fromEntries(Object.entries(d.shape ?? {}).map(([k, v]) => [k, node(v)])) };
    case "record":
      return { kind: "map", value: node(d.valueType!) };
    case "number": {
      const whole = (d.checks ?? []).some((c) => c._zod.def.check === "number_format" && /int/.test(c._zod.def.format ?? ""));
      return { kind: "key", type: whole ? "integer" : "number" };
    }
    case "boolean":
      return { kind: "key", type: "boolean" };
    case "array":
      return { kind: "key", type: "strings" };
    case "enum":
      return { kind: "key", type: "string", values: Object.values(d.entries ?? {}) };
    default:
      return { kind: "key", type: "string" };
  }
}

const CONFIG_SHAPE: SchemaNode = node(configSchema);

/** The node at a dotted path (`provider.openai.models`), or undefined. */
function nodeAt(path: readonly string[]): SchemaNode | undefined {
  let cur: SchemaNode | undefined = CONFIG_SHAPE;
  for (const part of path) {
    if (cur?.kind === "table") cur = Object.hasOwn(cur.fields, part) ? cur.fields[part] : undefined;
    else if (cur?.kind === "map") cur = cur.value;
    else return undefined;
  }
  return cur;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/** The candidate closest to `word`, when it is close enough to be a typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** ` (did you mean 'x'?)`, or "" when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closest(word, candidates);
  return match ? ` (did you mean '${match}'?)` : "";
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A dotted key as written in TOML: `provider."my.llm".models`. */
function dottedKey(path: readonly string[]): string {
  return path.map((p) => (BARE_KEY.test(p) ? p : JSON.stringify(p))).join(".");
}

/** A key or table of a parsed config that the schema does not know, with the closest known key there. */
interface UnknownKey {
  path: string;
  guess?: string;
}

/** Keys and tables of a parsed config that the schema does not know, as dotted paths. */
export function unknownKeyList(doc: Record<string, unknown>): UnknownKey[] {
  const found: UnknownKey[] = [];
  const walk = (value: unknown, shape: SchemaNode, path: string[]) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      if (shape.kind === "map") walk(inner, shape.value, [...path, key]);
      else if (shape.kind === "table") {
        if (Object.hasOwn(shape.fields, key)) walk(inner, shape.fields[key], [...path, key]);
        else {
          const guess = closest(key, Object.keys(shape.fields));
          found.push({ path: dottedKey([...path, key]), ...(guess ? { guess: dottedKey([...path, guess]) } : {}) });
        }
      }
    }
  };
  walk(doc, CONFIG_SHAPE, []);
  return found;
}

/** Each unknown key as `unknown key provder (did you mean provider?)`: the whole dotted path, and the closest known key by edit distance. */
export function unknownKeys(doc: Record<string, unknown>): string[] {
  return unknownKeyList(doc).map((k) => `unknown key ${k.path}${k.guess ? ` (did you mean ${k.guess}?)` : ""}`);
}

/** Every table of the config (`provider.<name>`, `system.crab`) with its keys, for documentation. */
export function schemaTables(): { path: string; keys: string[] }[] {
  const out: { path: string; keys: string[] }[] = [];
  const walk = (n: SchemaNode, path: string[]) => {
    if (n.kind === "map") {
      if (n.value.kind === "key" || n.value.kind === "map") out.push({ path: path.join("."), keys: [] });
      else walk(n.value, [...path, "<name>"]);
      return;
    }
    if (n.kind !== "table") return;
    const keys: string[] = [];
    let tables = 0;
    for (const [key, child] of Object.entries(n.fields)) {
      // A map of plain values inside a table (an MCP server's `env`) is one key.
      const isTable = child.kind === "table" || (child.kind === "map" && (path.length === 0 || child.value.kind !== "key"));
      if (isTable) {
        tables++;
        walk(child, [...path, key]);
      } else keys.push(key);
    }
    if (path.length > 0 && (keys.length > 0 || tables === 0)) out.push({ path: path.join("."), keys });
  };
  walk(CONFIG_SHAPE, []);
  return out;
}

/** Known names at the point where `path` leaves the schema, for a hint. */
function unknownPathMessage(path: readonly string[]): string {
  let cur: SchemaNode = CONFIG_SHAPE;
  for (let i = 0; i < path.length; i++) {
    if (cur.kind === "map") cur = cur.value;
    else if (cur.kind === "table" && Object.hasOwn(cur.fields, path[i])) cur = cur.fields[path[i]];
    else if (cur.kind === "table") {
      const known = Object.keys(cur.fields);
      const guess = closest(path[i], known);
      const where = path.slice(0, i);
      const suggestion = guess
        ? ` (did you mean '${[...where, guess].join(".")}'?)`
        : ` (${where.length ? `[${where.join(".")}] has` : "known tables:"} ${known.join(", ")})`;
      return `unknown config key '${path.join(".")}'${suggestion}`;
    } else break;
  }
  return `'${path.slice(0, -1).join(".")}' takes a value, not keys: unknown config key '${path.join(".")}'`;
}

/** `provider."gpt-4.1".models` → its parts; a quoted part may hold dots. Undefined when malformed. */
function splitKey(key: string): string[] | undefined {
  const parts: string[] = [];
  const re = /(?:"((?:[^"\\]|\\.)*)"|([^."]+))(\.|$)/y;
  let pos = 0;
  while (pos < key.length) {
    re.lastIndex = pos;
    const m = re.exec(key);
    if (!m) return undefined;
    try {
      parts.push(m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : m[2]!);
    } catch {
      return undefined;
    }
    pos = re.lastIndex;
    if (m[3] === "") break;
    if (pos === key.length) return undefined; // a trailing dot
  }
  return pos === key.length && parts.length > 0 ? parts : undefined;
}

const isTableValue = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A table's value given as JSON: `'{"m":{"input":2.5,"output":10}}'`; the daemon checks its keys. */
function tableValue(key: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${key} is a table: give it as a JSON object (${(err as Error).message}), or set one of its keys`);
  }
  if (!isTableValue(value)) throw new Error(`${key} is a table: give it as a JSON object, or set one of its keys`);
  return value as Record<string, unknown>;
}

/**
 * `config set KEY VALUE`: the dotted key checked against the schema and the
 * text turned into the type the key takes (whole numbers, decimals,
 * true/false, lists as `a,b` or a JSON array, tables as a JSON object).
 * Throws an Error that says what is wrong.
 */
export function parseKeyValue(key: string, text: string): { path: string[]; value: unknown } {
  const path = splitKey(key);
  if (!path || path.some((p) => p === "" || p === "__proto__" || p === "constructor" || p === "prototype")) {
    throw new Error(`invalid config key '${key}': use a dotted path like system.crab.model (quote a part holding dots: provider.p.prices."gpt-4.1")`);
  }
  const n = nodeAt(path);
  if (!n) throw new Error(unknownPathMessage(path));
  if (n.kind !== "key") {
    if (text.trim().startsWith("{")) return { path, value: tableValue(key, text) };
    const example = n.kind === "table" ? `${key}.${Object.keys(n.fields)[0]}` : `${key}.NAME`;
    throw new Error(`'${key}' is a table: set one of its keys, e.g. ${example}, or give the whole table as a JSON object`);
  }
  const trimmed = text.trim();
  switch (n.type) {
    case "integer":
      if (!/^-?\d+$/.test(trimmed)) throw new Error(`${key} takes a whole number, not '${text}'`);
      return { path, value: Number(trimmed) };
    case "number":
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) throw new Error(`${key} takes a number, e.g. 2.5, not '${text}'`);
      return { path, value: Number(trimmed) };
    case "boolean": {
      const v = trimmed.toLowerCase();
      if (v !== "true" && v !== "false") throw new Error(`${key} takes true or false, not '${text}'`);
      return { path, value: v === "true" };
    }
    case "strings": {
      if (trimmed.startsWith("[")) {
        let list: unknown;
        try {
          list = JSON.parse(text);
        } catch {
          throw new Error(`${key} takes a list: a,b,c or a JSON array of strings`);
        }
        if (!Array.isArray(list) || list.some((x) => typeof x !== "string")) throw new Error(`${key} takes a list of strings`);
        return { path, value: list };
      }
      return {
        path,
        value: text
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    }
    default:
      if (n.values && !n.values.includes(text)) throw new Error(`${key} takes one of ${n.values.join(", ")}, not '${text}'`);
      return { path, value: text };
  }
}
