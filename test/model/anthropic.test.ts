// The Anthropic adapter against the fake server (the SDK's wire format: test/model/anthropic-wire.test.ts).
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { toMessagesRequest } from "../../src/model/anthropic/request.ts";
import { FAKE_SIGNATURE, startFakeAnthropic } from "../support/fake-anthropic.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { KEY, assemble, collect, modelFor } from "./helpers.ts";

let fake: FakeLLM;
beforeEach(async () => {
  await fake?.stop();
  fake = await startFakeAnthropic();
});
afterAll(() => fake?.stop());

const hello = { model: "claude-x", messages: [{ role: "user" as const, content: "hi" }] };
const claude = (baseUrl = fake.url) => modelFor({ kind: "anthropic", baseUrl }, "claude-x");

describe("streaming", () => {
  test("text deltas assemble; usage and stop reason map", async () => {
    fake.script({ text: "hello there, world", usage: { prompt: 50, completion: 9, cacheHit: 20 } });
    const chunks = await collect(claude().stream(hello));
    expect(chunks.filter((c) => c.type === "text").length).toBeGreaterThan(1);
    const answer = assemble(chunks);
    expect(answer.content).toBe("hello there, world");
    expect(answer.finishReason).toBe("stop");
    expect(answer.usage).toEqual({ promptTokens: 50, completionTokens: 9, totalTokens: 59, cacheHitTokens: 20 });
    expect(fake.firstChunkSentAt.length).toBe(1);
  });

  test("thinking deltas stream before text and end with the block's signature", async () => {
    fake.script({ thinking: "step one, step two", text: "answer" });
    const chunks = await collect(claude().stream({ ...hello, thinking: true }));
    const firstText = chunks.findIndex((c) => c.type === "text");
    expect(chunks.findLastIndex((c) => c.type === "thinking")).toBeLessThan(firstText);
    const answer = assemble(chunks);
    expect(answer.reasoning).toBe("step one, step two");
    expect(answer.signature).toBe(FAKE_SIGNATURE);
    expect(answer.content).toBe("answer");
  });

  test("tool_use blocks and input_json_delta fragments become indexed tool-call fragments", async () => {
    fake.script({
      text: "let me look",
      toolCalls: [
        { id: "toolu_1", name: "bash", arguments: '{"command":"ls -la"}' },
        { id: "toolu_2", name: "recall", arguments: '{"query":"x"}' },
      ],
    });
    const chunks = await collect(claude().stream(hello));
    // Block 1 is text; the tools are calls 0 and 1 regardless of their block index.
    expect(chunks.filter((c) => c.type === "tool_call" && c.index === 0).length).toBeGreaterThan(1);
    const answer = assemble(chunks);
    expect(answer.toolCalls).toEqual([
      { id: "toolu_1", name: "bash", arguments: '{"command":"ls -la"}' },
      { id: "toolu_2", name: "recall", arguments: '{"query":"x"}' },
    ]);
    expect(answer.finishReason).toBe("tool_calls");
  });
});

describe("non-streaming", () => {
  test("text, thinking with signature, tool calls, usage and stop reason", async () => {
    fake.script({
      text: "done",
      thinking: "hmm",
      toolCalls: [{ id: "toolu_1", name: "bash", arguments: '{"command":"pwd"}' }],
      usage: { prompt: 7, completion: 3 },
    });
    const res = await claude().complete(hello);
    expect(res).toEqual({
      content: "done",
      reasoning: "hmm",
      reasoningSignature: FAKE_SIGNATURE,
      toolCalls: [{ id: "toolu_1", name: "bash", arguments: '{"command":"pwd"}' }],
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10, cacheHitTokens: 0 },
      finishReason: "tool_calls",
    });
  });
});

describe("request shape", () => {
  test("system slot, tool_use blocks, one user turn of tool results, tools with auto choice, max_tokens", async () => {
    await collect(
      claude().stream({
        model: "claude-x",
        system: "be brief",
        messages: [
          { role: "user", content: "list files" },
          {
            role: "assistant",
            content: "",
            reasoning: "unsigned, so dropped",
            toolCalls: [
              { id: "t1", name: "bash", arguments: '{"command":"ls"}' },
              { id: "t2", name: "bash", arguments: "not json" },
            ],
          },
          { role: "tool", content: "a.txt", toolCallId: "t1" },
          { role: "tool", content: "b.txt", toolCallId: "t2" },
        ],
        tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: {} } }],
      }),
    );
    const req = fake.requests[0];
    expect(req?.path).toBe("/v1/messages");
    // The SDK sends the key as x-api-key or (newer versions) as a bearer token.
    expect(req?.headers["x-api-key"] ?? req?.headers.authorization?.replace(/^Bearer /, "")).toBe(KEY);
    expect(req?.headers["anthropic-version"]).toBeTruthy();
    const body = req?.body;
    expect(body.stream).toBe(true);
    expect(body.system).toBe("be brief");
    expect(body.max_tokens).toBe(8192);
    expect("thinking" in body).toBe(false);
    expect(body.tool_choice).toEqual({ type: "auto" });
    expect(body.tools).toEqual([{ name: "bash", description: "run", input_schema: { type: "object", properties: {} } }]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "list files" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
          { type: "tool_use", id: "t2", name: "bash", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "a.txt" },
          { type: "tool_result", tool_use_id: "t2", content: "b.txt" },
        ],
      },
    ]);
  });

  test("thinking on: enabled with a budget below max_tokens; signed reasoning goes back as a thinking block", () => {
    const body = toMessagesRequest({
      model: "claude-x",
      thinking: true,
      messages: [
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: "",
          reasoning: "because",
          reasoningSignature: "sig",
          toolCalls: [{ id: "t1", name: "bash", arguments: "{}" }],
        },
        { role: "tool", content: "out", toolCallId: "t1" },
      ],
    });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(body.max_tokens).toBeGreaterThan(8192);
    expect(body.messages[1]?.content).toEqual([
      { type: "thinking", thinking: "because", signature: "sig" },
      { type: "tool_use", id: "t1", name: "bash", input: {} },
    ]);
    expect("tools" in body).toBe(false);
  });

  test("thinking on but the tool turn being answered lost its signature: this request goes without thinking", () => {
    const body = toMessagesRequest({
      model: "claude-x",
      thinking: true,
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: "", reasoning: "unsigned", toolCalls: [{ id: "t1", name: "bash", arguments: "{}" }] },
        { role: "tool", content: "out", toolCallId: "t1" },
      ],
    });
    expect(body.thinking).toBeUndefined();
    expect(body.max_tokens).toBe(8192);
  });

  test("system messages in the history join the system slot; empty turns are left out", () => {
    const body = toMessagesRequest({
      model: "claude-x",
      system: "base",
      messages: [
        { role: "system", content: "extra" },
        { role: "user", content: "q" },
        { role: "assistant", content: "" },
        { role: "user", content: "again" },
      ],
    });
    expect(body.system).toBe("base\n\nextra");
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "q" },
          { type: "text", text: "again" },
        ],
      },
    ]);
  });
});

describe("base URL", () => {
  for (const suffix of ["", "/", "/v1", "/v1/", "/v1/messages", "/messages"]) {
    test(`given as <origin>${suffix}`, async () => {
      fake.script({ text: "ok" });
      expect((await claude(fake.url + suffix).complete(hello)).content).toBe("ok");
      expect(fake.requests[0]?.path).toBe("/v1/messages");
    });
  }

  test("kind openai with a base_url naming anthropic speaks the Messages API (docs/providers.md#routing-and-base-urls)", async () => {
    const { ModelRegistry } = await import("../../src/model/registry.ts");
    // A path segment makes the URL "contain anthropic" while still pointing at the fake.
    const registry = new ModelRegistry([{ name: "proxy", kind: "openai", apiKey: KEY, baseUrl: `${fake.url}/anthropic`, models: ["claude-x"] }]);
    const resolved = registry.resolve("claude-x");
    expect(resolved.kind).toBe("anthropic");
    await resolved.model.complete(hello).catch(() => undefined);
    expect(fake.requests[0]?.path).toBe("/anthropic/v1/messages");
  });

  test("a keyless proxy gets no auth header and no ANTHROPIC_API_KEY from the environment", async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = "sk-ant-from-env-must-not-leak";
    try {
      const model = modelFor({ kind: "anthropic", baseUrl: fake.url, apiKey: undefined }, "claude-x");
      expect((await model.complete(hello)).content).toBe("ok");
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
    expect(fake.requests[0]?.headers["x-api-key"]).toBeUndefined();
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
  });
});
