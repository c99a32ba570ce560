/**
 * Config text from the docs/config.md#the-config-as-json JSON shape (SetConfig). The file itself is
 * written with writeFileAtomicSync (src/base/atomic-file.ts, docs/home.md#writing-files-safely).
 */
import { stringify } from "smol-toml";
import { sameValue } from "./same-value.ts";

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
    Object.entries(withoutNulls(json) as Table).filter(([key, v]) => !((key === "mcps" || key === "agents") && isTable(v) && Object.keys(v).length === 0)),
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
