// What a model round costs (docs/usage.md): a dated table of list prices for
// the well-known models of every provider kind, overridden per provider by
// `prices` in config.toml. A model with neither has no price: its tokens are
// counted, its cost is unknown (never guessed as zero).
import type { Usage } from "../../model/types.ts";
import { isLocalKind } from "../../base/provider-kinds.ts";

/** USD per million tokens. Cache prices default to the input price. */
export interface ModelPrice {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

/** When the built-in table was last checked against the providers' price pages. */
export const PRICES_AS_OF = "2025-10-01";

/**
 * List prices by model name; a dated or versioned name takes its model's price
 * (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`, never `gpt-4o`). Bedrock ids are
 * matched after their region and vendor prefix (`us.anthropic.`).
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI (and Azure OpenAI deployments named after the model)
  "gpt-5": { input: 1.25, output: 10, cache_read: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cache_read: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cache_read: 0.005 },
  "gpt-4.1": { input: 2, output: 8, cache_read: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cache_read: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cache_read: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cache_read: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cache_read: 0.075 },
  o1: { input: 15, output: 60, cache_read: 7.5 },
  o3: { input: 2, output: 8, cache_read: 0.5 },
  "o3-mini": { input: 1.1, output: 4.4, cache_read: 0.55 },
  "o4-mini": { input: 1.1, output: 4.4, cache_read: 0.275 },
  // Anthropic (also on Bedrock)
  "claude-opus-4-5": { input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 },
  "claude-opus-4": { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  "claude-sonnet-4": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  "claude-3-7-sonnet": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  "claude-3-5-sonnet": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  "claude-haiku-4-5": { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cache_read: 0.08, cache_write: 1 },
  "claude-3-haiku": { input: 0.25, output: 1.25, cache_read: 0.03, cache_write: 0.3 },
  // Google Gemini (prompts up to 200k tokens)
  "gemini-2.5-pro": { input: 1.25, output: 10, cache_read: 0.31 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cache_read: 0.075 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cache_read: 0.025 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4, cache_read: 0.025 },
  // Amazon Bedrock's own models
  "amazon.nova-pro": { input: 0.8, output: 3.2, cache_read: 0.2 },
  "amazon.nova-lite": { input: 0.06, output: 0.24, cache_read: 0.015 },
  "amazon.nova-micro": { input: 0.035, output: 0.14, cache_read: 0.00875 },
  // DeepSeek (OpenAI-compatible)
  "deepseek-chat": { input: 0.27, output: 1.1, cache_read: 0.07 },
  "deepseek-reasoner": { input: 0.55, output: 2.19, cache_read: 0.14 },
};

export interface PricedProvider {
  kind: string;
  /** `prices` of `[provider.<name>]`, by exact model name. */
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** Prices of the configured providers, by provider config name. */
export class PriceBook {
  constructor(private readonly providers: ReadonlyMap<string, PricedProvider> = new Map()) {}

  /** The price of `model` served by `provider`, or undefined ("no price"). */
  priceOf(provider: string, model: string): ModelPrice | undefined {
    const p = this.providers.get(provider);
    const own = p?.prices?.[model];
    if (own) return own;
    // A kind that runs on the user's machine (`local` in src/base/provider-kinds.ts): its tokens cost nothing.
    if (p && isLocalKind(p.kind)) return { input: 0, output: 0 };
    return defaultPrice(model);
  }

  /** USD of one round's usage, or undefined when the model has no price. */
  costOf(provider: string, model: string, usage: Usage): number | undefined {
    const price = this.priceOf(provider, model);
    return price && costAt(price, usage);
  }
}

/** A dated or versioned name of the same model: `-2024-07-18`, `-20250514`, `-v1:0`, `-latest`, `@001`. */
const SAME_MODEL_SUFFIX = /^(?:-\d.*|-v\d.*|-latest|@.*)?$/;

/** defaultPrice by model name: every model round of every run asks for it. */
const defaults = new Map<string, ModelPrice | undefined>();
const MAX_REMEMBERED = 256;

export function defaultPrice(model: string): ModelPrice | undefined {
  if (defaults.has(model)) return defaults.get(model);
  if (defaults.size >= MAX_REMEMBERED) defaults.clear();
  const price = lookUpDefault(model);
  defaults.set(model, price);
  return price;
}

function lookUpDefault(model: string): ModelPrice | undefined {
  const name = model
    .toLowerCase()
    .replace(/^models\//, "")
    .replace(/^[a-z]{2}\.(?=anthropic\.|amazon\.)/, "")
    .replace(/^anthropic\./, "");
  let best: string | undefined;
  for (const key of Object.keys(DEFAULT_PRICES)) {
    if (!name.startsWith(key) || !SAME_MODEL_SUFFIX.test(name.slice(key.length))) continue;
    if (best === undefined || key.length > best.length) best = key;
  }
  return best === undefined ? undefined : DEFAULT_PRICES[best];
}

/** Prompt tokens include cache reads and writes; each part is billed at its own rate. */
export function costAt(price: ModelPrice, u: Usage): number {
  const read = u.cacheHitTokens ?? 0;
  const write = u.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, u.promptTokens - read - write);
  const usd = fresh * price.input + read * (price.cache_read ?? price.input) + write * (price.cache_write ?? price.input) + u.completionTokens * price.output;
  return usd / 1_000_000;
}
