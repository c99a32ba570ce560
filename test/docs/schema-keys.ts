// Every key the config schema accepts, found by walking the zod schema, so the
// documentation check stays true as keys are added.
import type { z } from "zod";
import { configSchema } from "../../src/daemon/config/schema.ts";

/** A table of the config (`provider.<name>`, `system.crab`) and its keys. */
export interface SchemaTable {
  path: string;
  keys: string[];
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; in?: z.ZodType; valueType?: z.ZodType };

const def = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Strips defaults, optionals and transforms down to the schema that takes the input. */
function unwrap(schema: z.ZodType): z.ZodType {
  for (;;) {
    const d = def(schema);
    if (d.innerType) schema = d.innerType;
    else if (d.type === "pipe" && d.in) schema = d.in;
    else return schema;
  }
}

function walk(schema: z.ZodType, path: string[], out: SchemaTable[]): void {
  const d = def(unwrap(schema));
  if (d.type === "record" && d.valueType) {
    if (def(unwrap(d.valueType)).type === "object") walk(d.valueType, [...path, "<name>"], out);
    else out.push({ path: path.join("."), keys: [] }); // a free table of strings, like [env]
    return;
  }
  if (d.type !== "object" || !d.shape) return;
  const keys: string[] = [];
  let tables = 0;
  for (const [key, value] of Object.entries(d.shape)) {
    const inner = def(unwrap(value));
    const isTable = inner.type === "object" || (inner.type === "record" && (path.length === 0 || def(unwrap(inner.valueType!)).type === "object"));
    if (isTable) {
      tables++;
      walk(value, [...path, key], out);
    } else keys.push(key);
  }
  if (path.length > 0 && (keys.length > 0 || tables === 0)) out.push({ path: path.join("."), keys });
}

export function schemaTables(): SchemaTable[] {
  const out: SchemaTable[] = [];
  walk(configSchema, [], out);
  return out;
}
