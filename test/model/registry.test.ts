// Routing by model name, error text, context limits and presets (docs/providers.md#routing-and-base-urls, docs/providers.md#presets).
import { describe, expect, test } from "bun:test";
import { anthropicBaseUrl, normalizeOpenAIBaseUrl } from "../../src/base/base-url.ts";
import { PROVIDER_PRESETS, effectiveKind, endpointOf } from "../../src/base/provider-kinds.ts";
import { contextLimit } from "../../src/model/context-limit.ts";
import { ModelNotFoundError } from "../../src/model/errors.ts";
import { ModelRegistry } from "../../src/model/registry.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";

const providers: ProviderSettings[] = [
  { name: "oa", kind: "openai", apiKey: "k", models: ["gpt-4o", "gpt-4o-mini"] },
  { name: "ant", kind: "anthropic", apiKey: "k", models: ["claude-sonnet-4-5"] },
  { name: "local", kind: "ollama", models: ["llama3"] },
];

describe("registry", () => {
  test("one entry per model, routed to its provider with the effective kind", () => {
    const r = new ModelRegistry(providers);
    expect(r.models()).toEqual([
      { name: "gpt-4o", provider: "oa", kind: "openai" },
      { name: "gpt-4o-mini", provider: "oa", kind: "openai" },
      { name: "claude-sonnet-4-5", provider: "ant", kind: "anthropic" },
      { name: "llama3", provider: "local", kind: "ollama" },
    ]);
    const resolved = r.resolve("claude-sonnet-4-5");
    expect(resolved.provider).toBe("ant");
    expect(resolved.kind).toBe("anthropic");
    expect(typeof resolved.model.complete).toBe("function");
    expect(r.providerOf("llama3")).toBe("local");
    expect(r.has("nope")).toBe(false);
  });

  test("an unknown model fails with the list of known models", () => {
    const r = new ModelRegistry(providers);
    expect(() => r.resolve("gpt-5")).toThrow(new ModelNotFoundError("gpt-5", ["gpt-4o", "gpt-4o-mini", "claude-sonnet-4-5", "llama3"]));
    expect(() => r.resolve("gpt-5")).toThrow("model 'gpt-5' not found in registry (known models: gpt-4o, gpt-4o-mini, claude-sonnet-4-5, llama3)");
  });

  test("an empty registry says how to configure a provider", () => {
    const r = new ModelRegistry([]);
    expect(r.isEmpty).toBe(true);
    expect(() => r.resolve("gpt-4o")).toThrow(
      "model 'gpt-4o' not found in registry (no providers configured: set [provider.<name>] in config.toml, or export OPENAI_API_KEY / ANTHROPIC_API_KEY, or run Ollama)",
    );
  });

  test("disabled providers contribute no models", () => {
    const r = new ModelRegistry(providers, { disabled: ["ant"] });
    expect(r.has("claude-sonnet-4-5")).toBe(false);
    expect(() => r.resolve("claude-sonnet-4-5")).toThrow("known models: gpt-4o, gpt-4o-mini, llama3");
  });

  test("a duplicated model name stays with the first provider", () => {
    const r = new ModelRegistry([
      { name: "a", kind: "openai", apiKey: "k", models: ["x"] },
      { name: "b", kind: "openai", apiKey: "k", models: ["x"] },
    ]);
    expect(r.models()).toEqual([{ name: "x", provider: "a", kind: "openai" }]);
  });

  test("contextLimit is available on the registry", () => {
    expect(new ModelRegistry([]).contextLimit("claude-3-opus")).toBe(200_000);
  });
});

describe("context limits (docs/providers.md#context-windows)", () => {
  const cases: [string, number][] = [
    ["claude-sonnet-4-5", 200_000],
    ["claude-3-haiku", 200_000],
    ["gpt-4o", 128_000],
    ["gpt-4o-mini", 128_000],
    ["gpt-4-turbo", 128_000],
    ["gpt-4", 8_192],
    ["gpt-3.5-turbo", 16_385],
    ["o1-preview", 200_000],
    ["o3-mini", 200_000],
    ["o4-mini", 200_000],
    ["grok-2", 131_072],
    ["qwen-max", 32_768],
    ["qwq-32b", 32_768],
    ["kimi-k2", 128_000],
    ["moonshot-v1", 128_000],
    ["llama-3", 8_192],
    ["unknown", 8_192],
  ];
  for (const [model, limit] of cases) {
    test(`${model} → ${limit}`, () => expect(contextLimit(model)).toBe(limit));
  }
});

describe("base URLs and effective kind (docs/providers.md#routing-and-base-urls)", () => {
  test("OpenAI-compatible normalisation strips a trailing / and one endpoint suffix", () => {
    expect(normalizeOpenAIBaseUrl("https://api.deepseek.com/v1/")).toBe("https://api.deepseek.com/v1");
    expect(normalizeOpenAIBaseUrl("https://x/v1/chat/completions")).toBe("https://x/v1");
    expect(normalizeOpenAIBaseUrl("https://x/v1/chat/completions/")).toBe("https://x/v1");
    expect(normalizeOpenAIBaseUrl("https://x/v1/messages")).toBe("https://x/v1");
    expect(normalizeOpenAIBaseUrl("https://x/v1/embeddings")).toBe("https://x/v1");
    expect(normalizeOpenAIBaseUrl("https://x/v1")).toBe("https://x/v1");
  });

  test("defaults per kind", () => {
    expect(endpointOf({ kind: "openai" })).toBe("https://api.openai.com/v1");
    expect(endpointOf({ kind: "ollama" })).toBe("http://localhost:11434/v1");
    expect(endpointOf({ kind: "ollama", baseUrl: "http://gpu-box:11434/" })).toBe("http://gpu-box:11434/v1");
    expect(anthropicBaseUrl({})).toBe("https://api.anthropic.com");
  });

  test("Anthropic base URLs lose /v1, /v1/messages or /messages (the SDK appends /v1/messages)", () => {
    expect(anthropicBaseUrl({ baseUrl: "https://api.anthropic.com/v1" })).toBe("https://api.anthropic.com");
    expect(anthropicBaseUrl({ baseUrl: "https://api.anthropic.com/v1/messages" })).toBe("https://api.anthropic.com");
    expect(anthropicBaseUrl({ baseUrl: "https://proxy/anthropic/" })).toBe("https://proxy/anthropic");
  });

  test("effective kind is anthropic when the kind says so or the base URL names anthropic", () => {
    expect(effectiveKind({ kind: "anthropic" })).toBe("anthropic");
    expect(effectiveKind({ kind: "openai", baseUrl: "https://api.anthropic.com/v1" })).toBe("anthropic");
    expect(effectiveKind({ kind: "openai", baseUrl: "https://api.deepseek.com" })).toBe("openai");
    expect(effectiveKind({ kind: "ollama" })).toBe("ollama");
  });
});

describe("presets (docs/providers.md#presets)", () => {
  test("the five presets in order with their URLs and default models", () => {
    expect(PROVIDER_PRESETS.map((p) => [p.name, p.kind, p.baseUrl, p.fixedBaseUrl, p.defaultModel])).toEqual([
      ["anthropic", "anthropic", "", "https://api.anthropic.com/v1", "claude-sonnet-4-5-20250514"],
      ["openai", "openai", "https://api.openai.com/v1", "", "gpt-4o"],
      ["google", "google", "", "https://generativelanguage.googleapis.com/v1beta", "gemini-2.5-pro"],
      ["ollama", "ollama", "http://localhost:11434/v1", "", "llama3"],
      ["azure", "azure", "", "", "gpt-4o"],
    ]);
  });
});
