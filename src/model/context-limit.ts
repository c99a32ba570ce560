// Context window by model-name prefix (daemon.md §4.2). First match wins, so
// longer prefixes come before shorter ones they extend.
const LIMITS: readonly (readonly [prefix: string, tokens: number])[] = [
  ["claude-", 200_000],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-3.5", 16_385],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4", 200_000],
  ["grok-", 131_072],
  ["qwen-", 32_768],
  ["qwq-", 32_768],
  ["kimi-", 128_000],
  ["moonshot-", 128_000],
];

export const DEFAULT_CONTEXT_LIMIT = 8_192;

export function contextLimit(model: string): number {
  for (const [prefix, tokens] of LIMITS) {
    if (model.startsWith(prefix)) return tokens;
  }
  return DEFAULT_CONTEXT_LIMIT;
}
