// The usage ledger of a test daemon's home, one object per recorded step
// (docs/usage.md).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function ledgerOf<T = { agent: string; cost_usd: number }>(home: string): T[] {
  return readFileSync(join(home, "usage/ledger.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
