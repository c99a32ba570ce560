// The models a provider offers, asked of the provider itself with its own
// list-models call (its kind's `listModels` in src/base/provider-kinds.ts),
// so that setup can offer a choice. Any failure (no network, a refused key, a
// kind without such a call) gives an empty list: setup then asks for the
// model name instead.
import { PROVIDER_KIND_TABLE, type ProviderKind } from "../../base/provider-kinds.ts";

interface ProviderAccess {
  kind: ProviderKind;
  baseUrl?: string;
  apiKey?: string;
}

const LIST_TIMEOUT_MS = 5000;
/** Printable, no whitespace, of a sane length. */
const MODEL_NAME = /^[\x21-\x7e]{1,200}$/;

export async function listProviderModels(p: ProviderAccess): Promise<string[]> {
  try {
    const ask = PROVIDER_KIND_TABLE[p.kind].listModels?.(p);
    if (!ask) return [];
    const res = await fetch(ask.url, { headers: ask.headers, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
    if (!res.ok) return [];
    // Names go on the user's terminal: a hostile or broken server's control characters never do.
    return ask.names(await res.json()).filter((n, i, all) => MODEL_NAME.test(n) && all.indexOf(n) === i);
  } catch {
    return [];
  }
}
