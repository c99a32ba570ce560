// Context-window defaults per model family and per-provider overrides.
import { expect, test } from "bun:test";
import { DEFAULT_CONTEXT_LIMIT, contextLimit } from "../../src/model/context-limit.ts";
import { ModelRegistry } from "../../src/model/registry.ts";

test("known families", () => {
  const cases: [string, number][] = [
    ["claude-sonnet-4-5", 200_000],
    ["gpt-4o-mini", 128_000],
    ["gpt-4.1-nano", 1_047_576],
    ["gpt-5", 400_000],
    ["o3-mini", 200_000],
    ["gemini-2.5-pro", 1_048_576],
    ["llama3.1:8b", 131_072],
    ["llama3:8b", 8_192],
    ["qwen2.5:7b", 32_768],
    ["qwen3:4b", 131_072],
    ["mistral-large-latest", 131_072],
    ["mistral:7b", 32_768],
    ["deepseek-chat", 131_072],
  ];
  for (const [model, tokens] of cases) expect([model, contextLimit(model)]).toEqual([model, tokens]);
});

test("routing prefixes (OpenRouter-style and Bedrock ids) are looked through", () => {
  expect(contextLimit("anthropic/claude-3-5-sonnet")).toBe(200_000);
  expect(contextLimit("us.anthropic.claude-sonnet-4-20250514-v1:0")).toBe(200_000);
  expect(contextLimit("meta.llama3-1-70b-instruct-v1:0")).toBe(131_072);
  expect(contextLimit("amazon.nova-pro-v1:0")).toBe(300_000);
});

test("unknown models get the default; an override wins over the family", () => {
  expect(contextLimit("my-finetune")).toBe(DEFAULT_CONTEXT_LIMIT);
  expect(contextLimit("gpt-4o", { "gpt-4o": 4096 })).toBe(4096);
  const registry = new ModelRegistry([{ name: "local", kind: "ollama", models: ["tiny", "llama3.1:8b"], contextLimits: { tiny: 2048 } }]);
  expect(registry.contextLimit("tiny")).toBe(2048);
  expect(registry.contextLimit("llama3.1:8b")).toBe(131_072);
});
