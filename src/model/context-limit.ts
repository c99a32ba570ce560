// Context windows (docs/providers.md#context-windows): a provider's `context_limits` override,
// else the default of the model's family, matched on the model name. The
// name is matched with any routing prefix (`openai/`, `us.anthropic.`, …)
// removed; first match wins, so longer prefixes come before those they extend.
const LIMITS: readonly (readonly [prefix: string, tokens: number])[] = [
  // Anthropic
  ["claude-", 200_000],
  // OpenAI
  ["gpt-5", 400_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-3.5", 16_385],
  ["gpt-oss", 131_072],
  ["o1-mini", 128_000],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4", 200_000],
  // Google
  ["gemini-1.5-pro", 2_097_152],
  ["gemini-", 1_048_576],
  ["gemma3", 131_072],
  ["gemma-3", 131_072],
  ["gemma", 8_192],
  // Meta (Ollama tags and Bedrock ids: llama3.1:8b, llama3-1-70b, meta.llama3-2-…)
  ["llama3.1", 131_072],
  ["llama3.2", 131_072],
  ["llama3.3", 131_072],
  ["llama3-1", 131_072],
  ["llama3-2", 131_072],
  ["llama3-3", 131_072],
  ["llama4", 1_048_576],
  ["llama-4", 1_048_576],
  ["llama3", 8_192],
  ["llama-3", 8_192],
  ["llama2", 4_096],
  // Alibaba
  ["qwen3", 131_072],
  ["qwen2.5", 32_768],
  ["qwen-", 32_768],
  ["qwq", 32_768],
  // Mistral
  ["mistral-large", 131_072],
  ["mistral-small", 32_768],
  ["mistral-nemo", 131_072],
  ["mistral", 32_768],
  ["mixtral", 32_768],
  ["codestral", 262_144],
  // Others
  ["deepseek", 131_072],
  ["grok-", 131_072],
  ["kimi-", 128_000],
  ["moonshot-", 128_000],
  ["phi3", 131_072],
  ["phi4", 16_384],
  ["nova-", 300_000],
];

export const DEFAULT_CONTEXT_LIMIT = 8_192;

/** Routing prefixes some providers put before the family name. */
const ROUTING_PREFIX = /^(?:[a-z0-9-]+\/|(?:us|eu|apac|global)\.)?(?:amazon\.|anthropic\.|meta\.|mistral\.|deepseek\.|qwen\.|openai\.)?/;

export function contextLimit(model: string, overrides?: Readonly<Record<string, number>>): number {
  const override = overrides?.[model];
  if (override !== undefined && override > 0) return override;
  const name = model.toLowerCase().replace(ROUTING_PREFIX, "");
  for (const [prefix, tokens] of LIMITS) {
    if (name.startsWith(prefix)) return tokens;
  }
  return DEFAULT_CONTEXT_LIMIT;
}
