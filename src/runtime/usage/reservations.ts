// Budget reservations (docs/usage.md "Budgets"): before a model request is
// sent, its worst case (estimated input plus the most output it may produce,
// at the model's prices) is held against every budget it counts toward, so
// runs started at once cannot together pass a budget that each of them sees
// as not yet spent. The request's limit on output is lowered to what the
// budgets can still pay; below a floor the request is not made.
import type { ModelPrice } from "./prices.ts";
import { usd } from "./budget.ts";

/** Below this many output tokens a request is not worth making: the run ends with the budget error. */
export const MIN_OUTPUT_TOKENS = 256;

/** What is held for requests in flight against one budget (or daemon-wide). */
export class Holdings {
  usd = 0;
  tokens = 0;
  requests = 0;
}

/** One budget a request counts toward. */
export interface Budget {
  /** Names it in a refusal: `max_usd_per_run of agent 'crab' ($0.5000)`. */
  label: string;
  unit: "usd" | "tokens";
  limit: number;
  /** Spent (or used) so far, finished requests only. */
  spent(): number;
  /** How the refusal says what was spent: "spent today", "this run spent". */
  spentWords: string;
  held: Holdings;
}

/** The worst case of one request before its output limit is chosen. */
export interface RequestEstimate {
  inputTokens: number;
  /** The highest price the request may be billed at; undefined: no price (dollar budgets do not see it). */
  price?: ModelPrice;
  /** The output limit it has when no budget lowers it. */
  maxTokens: number;
}

/** A request allowed to go: its output limit, and the hold to release when it has ended. */
export interface Reservation {
  maxTokens: number;
  /** Gives back what was held (its usage, if any, is recorded as spent before). Idempotent. */
  release(): void;
}

/**
 * Holds the request's worst case against every budget and `total` (the
 * daemon-wide tally `crabtalk usage` shows), or says which budget it would
 * pass. Synchronous: no other request can reserve between the check and the hold.
 */
export function reserve(budgets: readonly Budget[], total: Holdings, estimate: RequestEstimate): Reservation | string {
  let maxTokens = estimate.maxTokens;
  let tightest: Budget | undefined;
  const counted = budgets.filter((b) => b.unit === "tokens" || estimate.price !== undefined);
  for (const b of counted) {
    const room = affordableOutput(b, estimate);
    if (room < maxTokens) {
      maxTokens = room;
      tightest = b;
    }
  }
  if (tightest && maxTokens < MIN_OUTPUT_TOKENS) return refusal(tightest, estimate);
  const cost = usdOf(estimate, maxTokens);
  const tokens = estimate.inputTokens + maxTokens;
  // Budgets of one run share its Holdings, and the daily budget's is `total`: each is held once.
  const holds = new Set<Holdings>([...counted.map((b) => b.held), total]);
  for (const h of holds) {
    h.usd += cost;
    h.tokens += tokens;
    h.requests++;
  }
  let released = false;
  return {
    maxTokens,
    release() {
      if (released) return;
      released = true;
      for (const h of holds) {
        // The last one out leaves exact zeros, not what rounding left over.
        const last = --h.requests === 0;
        h.usd = last ? 0 : Math.max(0, h.usd - cost);
        h.tokens = last ? 0 : Math.max(0, h.tokens - tokens);
      }
    },
  };
}

/** Input tokens are held at the dearest rate they may be billed at (fresh, cache read or cache write). */
function inputRate(price: ModelPrice): number {
  return Math.max(price.input, price.cache_read ?? price.input, price.cache_write ?? price.input) / 1_000_000;
}

function usdOf(estimate: RequestEstimate, outputTokens: number): number {
  const price = estimate.price;
  if (!price) return 0;
  return estimate.inputTokens * inputRate(price) + (outputTokens * price.output) / 1_000_000;
}

/** The most output tokens `b` can still pay for after the input; negative when not even the input. */
function affordableOutput(b: Budget, estimate: RequestEstimate): number {
  const left = b.limit - b.spent() - b.held[b.unit];
  if (b.unit === "tokens") return Math.floor(left - estimate.inputTokens);
  const price = estimate.price;
  if (!price) return Number.POSITIVE_INFINITY;
  const room = left - estimate.inputTokens * inputRate(price);
  // A hair below what is left, so that summing the held costs cannot round past the limit.
  if (price.output === 0) return room >= 0 ? Number.POSITIVE_INFINITY : -1;
  return Math.floor((room * (1 - 1e-9) * 1_000_000) / price.output);
}

function refusal(b: Budget, estimate: RequestEstimate): string {
  const amount = (n: number) => (b.unit === "usd" ? usd(n) : `${Math.ceil(n)} tokens`);
  const need = b.unit === "usd" ? usdOf(estimate, MIN_OUTPUT_TOKENS) : estimate.inputTokens + MIN_OUTPUT_TOKENS;
  const inFlight = b.held.requests > 0 ? `, ${amount(b.held[b.unit])} held for ${b.held.requests} request(s) in flight` : "";
  return (
    `budget ${b.label} would be exceeded: ${b.spentWords} ${amount(b.spent())}${inFlight}; ` +
    `the next request needs ${amount(need)} (its input and at least ${MIN_OUTPUT_TOKENS} tokens of answer)`
  );
}
