/**
 * Writing config files: atomically (docs/home.md#writing-files-safely: a crash at any instant leaves
 * every file loadable) and from the docs/config.md#the-config-as-json JSON shape (SetConfig).
 */
import fs from "node:fs";
import { randomBytes } from "../shared/random-bytes.ts";
import { basename, dirname, join } from "node:path";
import { stringify } from "smol-toml";
import { sameValue } from "./same-value.ts";

export interface WriteOptions {
  /**
   * Mode of a newly created file (default 0600). An existing file keeps its
   * own mode, less any group/other bit this one lacks: a rewrite never
   * leaves a file more open than asked.
   */
  mode?: number;
}

/**
 * Write `text` to a temp file beside `path`, fsync it, then rename it over
 * `path`: readers see the old file or the new one, never a partial one.
 */
export function writeFileAtomic(path: string, text: string, options: WriteOptions = {}): void {
  const dir = dirname(path);
  const tmp = join(dir, `${basename(path)}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
  const requested = options.mode ?? 0o600;
  let mode = requested;
  try {
    mode = fs.statSync(path).mode & (0o700 | requested);
  } catch {
    // no existing file: use the requested mode
  }
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, "wx", mode);
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing; the original error is the useful one
      }
    }
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  syncDir(dir);
}

/** Persist the rename itself; not every platform lets a directory be fsynced. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** TOML has no null: drop null values, except that `compact_threshold: null` means 0 (docs/agents.md#agent-config-json). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(withoutNulls);
  if (!isTable(value)) return value;
  // fromEntries, not assignment: a "__proto__" key must stay a plain key.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => v !== null || k === "compact_threshold")
      .map(([k, v]) => [k, v === null ? 0 : withoutNulls(v)]),
  );
}

const SECTION_ORDER = ["provider", "system", "env", "disabled"];

/**
 * TOML text of a docs/config.md#the-config-as-json config JSON (after restoreRedacted). The deprecated
 * `mcps`/`agents` tables are written only when they hold something, so a
 * round trip through GetConfig does not plant them in `config.toml`.
 */
export function configJsonToToml(json: Record<string, unknown>): string {
  const entries = Object.entries(configJsonTable(json));
  const rank = (key: string) => {
    const i = SECTION_ORDER.indexOf(key);
    return i === -1 ? SECTION_ORDER.length : i;
  };
  // Stable sort: known sections first, everything else in its original order.
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return stringify(Object.fromEntries(entries));
}

/** The document a docs/config.md#the-config-as-json config JSON stands for: no nulls, no empty `mcps`/`agents`. */
export function configJsonTable(json: Record<string, unknown>): Table {
  return Object.fromEntries(
    Object.entries(withoutNulls(json) as Table).filter(
      ([key, v]) => !((key === "mcps" || key === "agents") && isTable(v) && Object.keys(v).length === 0),
    ),
  );
}

/**
 * `next` without the values GetConfig filled in (`defaults`) that the file
 * never had, so a round trip does not plant every default in `config.toml`.
 */
export function withoutFilledDefaults(next: Table, file: Table, defaults: Table): Table {
  const out: Table = {};
  for (const [key, value] of Object.entries(next)) {
    const inFile = Object.hasOwn(file, key);
    const def = defaults[key];
    if (isTable(value) && isTable(def)) {
      const inner = withoutFilledDefaults(value, isTable(file[key]) ? file[key] : {}, def);
      if (inFile || Object.keys(inner).length > 0) out[key] = inner;
    } else if (inFile || !sameValue(value, def)) {
      out[key] = value;
    }
  }
  return out;
}
