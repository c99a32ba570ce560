// Provider detection from the environment and a (fake) local Ollama.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { detectProviders } from "../../src/model/detect.ts";
import { ModelRegistry } from "../../src/model/registry.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

/** A URL nothing listens on (a port that was just free). */
async function deadUrl(): Promise<string> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const url = `http://127.0.0.1:${s.port}`;
  await s.stop(true);
  return url;
}

describe("from the environment", () => {
  test("OPENAI_API_KEY → openai with gpt-4o", async () => {
    const d = await detectProviders({ OPENAI_API_KEY: "sk-1" }, { ollamaUrl: await deadUrl() });
    expect(d).toEqual({
      providers: [{ name: "openai", kind: "openai", apiKey: "sk-1", models: ["gpt-4o"] }],
      activeModel: "gpt-4o",
      source: "environment (OPENAI_API_KEY)",
    });
  });

  test("OPENAI_MODEL and OPENAI_BASE_URL are honoured", async () => {
    const d = await detectProviders({ OPENAI_API_KEY: "sk-1", OPENAI_MODEL: "deepseek-chat", OPENAI_BASE_URL: "https://api.deepseek.com" });
    expect(d?.providers).toEqual([{ name: "openai", kind: "openai", apiKey: "sk-1", baseUrl: "https://api.deepseek.com", models: ["deepseek-chat"] }]);
    expect(d?.activeModel).toBe("deepseek-chat");
  });

  test("ANTHROPIC_API_KEY → anthropic with claude-sonnet-4-5 (model and base URL overridable)", async () => {
    expect((await detectProviders({ ANTHROPIC_API_KEY: "a-1" }))?.providers).toEqual([
      { name: "anthropic", kind: "anthropic", apiKey: "a-1", models: ["claude-sonnet-4-5"] },
    ]);
    const d = await detectProviders({ ANTHROPIC_API_KEY: "a-1", ANTHROPIC_MODEL: "claude-opus-4", ANTHROPIC_BASE_URL: "https://p/anthropic" });
    expect(d?.providers[0]).toMatchObject({ baseUrl: "https://p/anthropic", models: ["claude-opus-4"] });
    expect(d?.activeModel).toBe("claude-opus-4");
  });

  test("both keys: both providers, OpenAI's model active; the source never shows a key", async () => {
    const d = await detectProviders({ OPENAI_API_KEY: "sk-secret", ANTHROPIC_API_KEY: "a-secret" });
    expect(d?.providers.map((p) => p.name)).toEqual(["openai", "anthropic"]);
    expect(d?.activeModel).toBe("gpt-4o");
    expect(d?.source).not.toContain("secret");
  });

  test("empty values count as unset", async () => {
    expect(await detectProviders({ OPENAI_API_KEY: "", ANTHROPIC_API_KEY: " " }, { ollamaUrl: await deadUrl() })).toBeUndefined();
  });
});

describe("from a local Ollama", () => {
  let ollama: ReturnType<typeof Bun.serve>;
  let chat: FakeLLM;
  beforeAll(async () => {
    chat = await startFakeOpenAI();
    const chatOrigin = new URL(chat.url).origin;
    ollama = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        const path = new URL(req.url).pathname;
        if (path === "/api/tags") {
          return Response.json({
            models: [
              { name: "qwen3:8b", model: "qwen3:8b" },
              { name: "llama3:latest", model: "llama3:latest" },
            ],
          });
        }
        // Ollama's OpenAI-compatible API, proxied to the fake.
        return fetch(chatOrigin + path, { method: req.method, headers: req.headers, body: await req.text() });
      },
    });
  });
  afterAll(async () => {
    await ollama.stop(true);
    await chat.stop();
  });

  test("lists its models; the first is active; the provider serves requests", async () => {
    const url = `http://127.0.0.1:${ollama.port}`;
    const d = await detectProviders({}, { ollamaUrl: url });
    expect(d).toEqual({
      providers: [{ name: "ollama", kind: "ollama", baseUrl: `${url}/v1`, models: ["qwen3:8b", "llama3:latest"] }],
      activeModel: "qwen3:8b",
      source: `Ollama at ${url}`,
    });
    chat.script({ text: "hi from ollama" });
    const res = await new ModelRegistry(d!.providers).resolve("qwen3:8b").model.complete({
      model: "qwen3:8b",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.content).toBe("hi from ollama");
    expect(chat.requests[0]?.headers.authorization).toBe("Bearer ollama");
  });

  test("an API key in the environment wins over Ollama", async () => {
    const d = await detectProviders({ OPENAI_API_KEY: "sk-1" }, { ollamaUrl: `http://127.0.0.1:${ollama.port}` });
    expect(d?.providers.map((p) => p.kind)).toEqual(["openai"]);
  });

  test("nothing answering → nothing detected", async () => {
    expect(await detectProviders({}, { ollamaUrl: await deadUrl() })).toBeUndefined();
  });

  test("a server that does not answer within the probe timeout is not Ollama", async () => {
    const slow = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async () => {
        await Bun.sleep(2000);
        return Response.json({ models: [{ name: "x" }] });
      },
    });
    try {
      // It would answer with a model after 2 s: undefined means the probe gave up first.
      expect(await detectProviders({}, { ollamaUrl: `http://127.0.0.1:${slow.port}`, timeoutMs: 100 })).toBeUndefined();
    } finally {
      await slow.stop(true);
    }
  });

  test("an Ollama with no models pulled is not usable", async () => {
    const empty = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ models: [] }) });
    try {
      expect(await detectProviders({}, { ollamaUrl: `http://127.0.0.1:${empty.port}` })).toBeUndefined();
    } finally {
      await empty.stop(true);
    }
  });
});
