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

/** A `[provider.fake]` table for `url` whose one model, fake-model, costs `usdPerToken` per input and output token. */
export function pricedFake(url: string, usdPerToken: number): string {
  return `[provider.fake]
api_key = "test-key"
base_url = "${url}"
models = ["fake-model"]
prices = { "fake-model" = { input = ${usdPerToken}, output = ${usdPerToken} } }
`;
}
