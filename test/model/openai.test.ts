// The OpenAI-compatible adapter through the real `openai` SDK against the fake server.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { fromChatChunk, toUsage } from "../../src/model/openai/response.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { KEY, assemble, collect, modelFor } from "./helpers.ts";

let fake: FakeLLM;
beforeEach(async () => {
  await fake?.stop();
  fake = await startFakeOpenAI();
});
afterAll(() => fake?.stop());

const hello = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

describe("streaming", () => {
  test("text arrives in several deltas and assembles", async () => {
    fake.script({ text: "hello there, world" });
    const chunks = await collect(modelFor({ kind: "openai", baseUrl: fake.url }).stream(hello));
    const texts = chunks.filter((c) => c.type === "text");
    expect(texts.length).toBeGreaterThan(1);
    const answer = assemble(chunks);
    expect(answer.content).toBe("hello there, world");
    expect(answer.finishReason).toBe("stop");
    expect(answer.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15, cacheHitTokens: 0, reasoningTokens: 0 });
    expect(fake.firstChunkSentAt.length).toBe(1);
  });

  test("reasoning_content streams as thinking before the text", async () => {
    fake.script({ thinking: "let me think", text: "42" });
    const chunks = await collect(modelFor({ kind: "openai", baseUrl: fake.url }).stream(hello));
    const firstText = chunks.findIndex((c) => c.type === "text");
    const lastThinking = chunks.findLastIndex((c) => c.type === "thinking");
    expect(lastThinking).toBeLessThan(firstText);
    expect(assemble(chunks).reasoning).toBe("let me think");
  });

  test("tool calls split across fragments assemble by index", async () => {
    fake.script({
      toolCalls: [
        { id: "call_1", name: "bash", arguments: '{"command":"ls -la"}' },
        { id: "call_2", name: "recall", arguments: '{"query":"x"}' },
      ],
    });
    const chunks = await collect(modelFor({ kind: "openai", baseUrl: fake.url }).stream(hello));
    expect(chunks.filter((c) => c.type === "tool_call" && c.index === 0).length).toBeGreaterThan(1);
    const answer = assemble(chunks);
    expect(answer.toolCalls).toEqual([
      { id: "call_1", name: "bash", arguments: '{"command":"ls -la"}' },
      { id: "call_2", name: "recall", arguments: '{"query":"x"}' },
    ]);
    expect(answer.finishReason).toBe("tool_calls");
  });

  test("usage maps prompt, completion, total and cached tokens", async () => {
    fake.script({ text: "x", usage: { prompt: 120, completion: 30, cacheHit: 100 } });
    const answer = assemble(await collect(modelFor({ kind: "openai", baseUrl: fake.url }).stream(hello)));
    expect(answer.usage).toMatchObject({ promptTokens: 120, completionTokens: 30, totalTokens: 150, cacheHitTokens: 100 });
  });
});

describe("non-streaming", () => {
  test("text, reasoning, tool calls, usage and finish reason", async () => {
    fake.script({
      text: "done",
      thinking: "hmm",
      toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"pwd"}' }],
      usage: { prompt: 7, completion: 3, cacheHit: 2 },
    });
    const res = await modelFor({ kind: "openai", baseUrl: fake.url }).complete(hello);
    expect(res).toEqual({
      content: "done",
      reasoning: "hmm",
      toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"pwd"}' }],
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10, cacheHitTokens: 2, reasoningTokens: 0 },
      finishReason: "tool_calls",
    });
    expect(fake.requests[0]?.body.stream).toBeFalsy();
  });
});

describe("request shape (docs/agent-loop.md#model-request)", () => {
  test("system first, null assistant content, tool calls and results, tools with auto choice, thinking", async () => {
    await collect(
      modelFor({ kind: "openai", baseUrl: fake.url }).stream({
        model: "m",
        system: "be brief",
        thinking: true,
        messages: [
          { role: "user", content: "" },
          { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }] },
          { role: "tool", content: "a.txt", toolCallId: "c1", name: "bash" },
          { role: "assistant", content: "there is a.txt", reasoning: "looked" },
        ],
        tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: {} } }],
      }),
    );
    const body = fake.requests[0]?.body;
    expect(fake.requests[0]?.path).toBe("/v1/chat/completions");
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.reasoning_effort).toBe("high");
    expect(body.tool_choice).toBe("auto");
    expect(body.tools).toEqual([{ type: "function", function: { name: "bash", description: "run", parameters: { type: "object", properties: {} } } }]);
    expect(body.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", content: "a.txt", tool_call_id: "c1" },
      { role: "assistant", content: "there is a.txt" },
    ]);
  });

  test("no tools: tools and tool_choice omitted; no system prompt: no system message; thinking off", async () => {
    await modelFor({ kind: "openai", baseUrl: fake.url }).complete({ ...hello, tools: [] });
    const body = fake.requests[0]?.body;
    expect(body.model).toBe("m");
    expect("tools" in body).toBe(false);
    expect("tool_choice" in body).toBe(false);
    expect("reasoning_effort" in body).toBe(false);
    expect(body.messages).toEqual([{ role: "user", content: "hi" }]);
  });
});

describe("base URL (docs/providers.md#routing-and-base-urls)", () => {
  for (const suffix of ["", "/", "/chat/completions", "/chat/completions/", "/messages", "/embeddings"]) {
    test(`given as <base>${suffix}`, async () => {
      fake.script({ text: "ok" });
      const res = await modelFor({ kind: "openai", baseUrl: fake.url + suffix }).complete(hello);
      expect(res.content).toBe("ok");
      expect(fake.requests[0]?.path).toBe("/v1/chat/completions");
    });
  }

  test("ollama without api_key sends a placeholder key, never OPENAI_API_KEY", async () => {
    const model = modelFor({ kind: "ollama", baseUrl: fake.url, apiKey: undefined });
    expect((await model.complete(hello)).content).toBe("ok");
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer ollama");
  });

  test("ollama given the bare origin gets /v1", async () => {
    const origin = fake.url.replace(/\/v1$/, "");
    expect((await modelFor({ kind: "ollama", baseUrl: origin, apiKey: undefined }).complete(hello)).content).toBe("ok");
    expect(fake.requests[0]?.path).toBe("/v1/chat/completions");
  });

  test("a keyless OpenAI-compatible server never receives OPENAI_API_KEY from the environment", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-from-env-must-not-leak";
    try {
      expect((await modelFor({ kind: "llama_cpp", baseUrl: fake.url, apiKey: undefined }).complete(hello)).content).toBe("ok");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer no-key");
  });

  test("azure routes to the deployment named by the model, with api-version and api-key", async () => {
    const res = await modelFor({ kind: "azure", baseUrl: fake.url, apiVersion: "2024-06-01" }, "gpt-4o-deploy").complete({
      ...hello,
      model: "gpt-4o-deploy",
    });
    expect(res.content).toBe("ok");
    expect(fake.requests[0]?.path).toBe("/v1/openai/deployments/gpt-4o-deploy/chat/completions");
    expect(fake.requests[0]?.headers["api-key"]).toBe(KEY);
  });
});

describe("OpenAI-compatible extras", () => {
  test("DeepSeek cache counters and reasoning tokens", () => {
    expect(
      toUsage({
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_cache_hit_tokens: 60,
        prompt_cache_miss_tokens: 40,
        completion_tokens_details: { reasoning_tokens: 12 },
      } as Parameters<typeof toUsage>[0]),
    ).toEqual({
      promptTokens: 100,
      completionTokens: 20,
      totalTokens: 120,
      cacheHitTokens: 60,
      cacheMissTokens: 40,
      reasoningTokens: 12,
    });
  });

  test("usage without optional counters has none", () => {
    expect(toUsage({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({
      promptTokens: 1,
      completionTokens: 2,
      totalTokens: 3,
    });
  });

  test("a `reasoning` delta field (Ollama and others) is thinking too", () => {
    const chunk = {
      id: "x",
      object: "chat.completion.chunk" as const,
      created: 0,
      model: "m",
      choices: [{ index: 0, delta: { reasoning: "hm" }, finish_reason: null }],
    };
    expect(fromChatChunk(chunk as Parameters<typeof fromChatChunk>[0])).toEqual([{ type: "thinking", text: "hm" }]);
  });
});
