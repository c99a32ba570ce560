// Protocol messages as plain JSON for --json output: protobuf field names
// (snake_case), uint64 as numbers, no generated-code bookkeeping ($typeName).
export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

export function toPlain(value: unknown): Plain {
  if (typeof value === "bigint") return Number(value);
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (typeof value === "object") {
    const out: { [key: string]: Plain } = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === "$typeName" || v === undefined) continue;
      out[snakeCase(key)] = toPlain(v);
    }
    return out;
  }
  return String(value);
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
