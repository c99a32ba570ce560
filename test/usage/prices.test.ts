// The price table: which price a model name gets, and what a round costs.
import { expect, test } from "bun:test";
import { costAt, defaultPrice, PriceBook } from "../../src/runtime/usage/prices.ts";

test("a dated or versioned name takes its model's price, never a longer model's", () => {
  expect(defaultPrice("gpt-4o-mini-2024-07-18")).toEqual(defaultPrice("gpt-4o-mini"));
  expect(defaultPrice("gpt-4o-2024-08-06")).toEqual(defaultPrice("gpt-4o"));
  expect(defaultPrice("gpt-4o-mini")).not.toEqual(defaultPrice("gpt-4o"));
  expect(defaultPrice("claude-sonnet-4-20250514")?.input).toBe(3);
  expect(defaultPrice("claude-opus-4-5-20251101")?.input).toBe(5);
  expect(defaultPrice("us.anthropic.claude-3-5-haiku-20241022-v1:0")?.input).toBe(0.8);
  expect(defaultPrice("amazon.nova-lite-v1:0")?.output).toBe(0.24);
  expect(defaultPrice("models/gemini-2.5-flash")?.input).toBe(0.3);
});

test("unknown models and look-alikes have no price", () => {
  expect(defaultPrice("o3-pro")).toBeUndefined();
  expect(defaultPrice("my-finetune")).toBeUndefined();
  expect(defaultPrice("gpt-4o-audio-preview")).toBeUndefined();
});

test("a provider's own price wins; local provider kinds cost nothing", () => {
  const book = new PriceBook(
    new Map([
      ["work", { kind: "openai", prices: { "gpt-4o": { input: 1, output: 1 } } }],
      ["home", { kind: "ollama" }],
    ]),
  );
  expect(book.priceOf("work", "gpt-4o")).toEqual({ input: 1, output: 1 });
  expect(book.priceOf("other", "gpt-4o")?.input).toBe(2.5);
  expect(book.costOf("home", "llama3.2", { promptTokens: 1e6, completionTokens: 1e6, totalTokens: 2e6 })).toBe(0);
  expect(book.costOf("work", "mystery", { promptTokens: 1, completionTokens: 1, totalTokens: 2 })).toBeUndefined();
});

test("cache reads and writes are billed at their own rates, the rest of the prompt at the input rate", () => {
  const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
  const usage = { promptTokens: 1_000_000, cacheHitTokens: 500_000, cacheWriteTokens: 100_000, completionTokens: 10_000, totalTokens: 1_010_000 };
  // 400k fresh × 3 + 500k × 0.3 + 100k × 3.75 + 10k × 15, per million.
  expect(costAt(price, usage)).toBeCloseTo(1.2 + 0.15 + 0.375 + 0.15, 12);
  expect(costAt({ input: 2, output: 4 }, { promptTokens: 1000, cacheHitTokens: 1000, completionTokens: 0, totalTokens: 1000 })).toBeCloseTo(0.002, 12);
});
