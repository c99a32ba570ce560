// How many tokens one answer may have (docs/usage.md "Budgets"). Anthropic and
// Bedrock always need a limit; with a budget in force every provider gets one,
// so a request's worst case is known before it is sent.

/** The answer's room when nothing lowers it. */
const DEFAULT_MAX_TOKENS = 8192;
/** Reasoning budget when thinking is on; the limit grows by as much so the answer keeps its room. */
const THINKING_BUDGET_TOKENS = 8192;
/** Anthropic's smallest thinking budget: below it a request goes without thinking. */
const MIN_THINKING_BUDGET_TOKENS = 1024;

/** The limit a request gets when no budget lowers it: reasoning included. */
export function defaultMaxTokens(thinking: boolean | undefined): number {
  return thinking ? DEFAULT_MAX_TOKENS + THINKING_BUDGET_TOKENS : DEFAULT_MAX_TOKENS;
}

/**
 * The thinking budget that fits in `maxTokens` (Anthropic wants it below
 * max_tokens): at most half of it, so the answer keeps room; undefined when
 * even the smallest budget does not fit (the request goes without thinking).
 */
export function thinkingBudgetWithin(maxTokens: number): number | undefined {
  const budget = Math.min(THINKING_BUDGET_TOKENS, Math.floor(maxTokens / 2));
  return budget >= MIN_THINKING_BUDGET_TOKENS ? budget : undefined;
}
