// The Gemini adapter against the fake server, which speaks Gemini's wire format.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { toGeminiRequest } from "../../src/model/gemini/request.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { FAKE_THOUGHT_SIGNATURE, startFakeGemini } from "../support/fake-gemini.ts";
import { KEY, assemble, collect, failure, modelFor } from "./helpers.ts";

let fake: FakeLLM;
beforeEach(async () => {
  await fake?.stop();
  fake = await startFakeGemini();
});
afterAll(() => fake?.stop());

const hello = { model: "gemini-x", messages: [{ role: "user" as const, content: "hi" }] };
const gemini = (settings: { baseUrl?: string; maxRetries?: number } = {}) => modelFor({ kind: "google", baseUrl: fake.url, ...settings }, "gemini-x");

describe("streaming", () => {
  test("text over streamGenerateContent?alt=sse assembles; usage maps", async () => {
    fake.script({ text: "hello there, world", usage: { prompt: 50, completion: 9, cacheHit: 20 } });
    const chunks = await collect(gemini().stream(hello));
    expect(chunks.filter((c) => c.type === "text").length).toBeGreaterThan(1);
    const answer = assemble(chunks);
    expect(answer.content).toBe("hello there, world");
    expect(answer.finishReason).toBe("stop");
    expect(answer.usage).toEqual({ promptTokens: 50, completionTokens: 9, totalTokens: 59, cacheHitTokens: 20 });
    const req = fake.requests[0];
    expect(req?.path).toBe("/v1beta/models/gemini-x:streamGenerateContent");
    expect(req?.query).toBe("alt=sse");
    expect(req?.headers["x-goog-api-key"]).toBe(KEY);
  });

  test("thought parts stream as thinking (with thinking on) and count as reasoning tokens", async () => {
    fake.script({ thinking: "step one, step two", text: "answer" });
    const chunks = await collect(gemini().stream({ ...hello, thinking: true }));
    expect(fake.requests[0]?.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true });
    const firstText = chunks.findIndex((c) => c.type === "text");
    expect(chunks.findLastIndex((c) => c.type === "thinking")).toBeLessThan(firstText);
    const answer = assemble(chunks);
    expect(answer.reasoning).toBe("step one, step two");
    expect(answer.usage).toEqual({ promptTokens: 10, completionTokens: 8, totalTokens: 18, reasoningTokens: 3 });
  });

  test("function calls without ids get ids of their own, distinct and kept", async () => {
    fake.script({
      toolCalls: [
        { id: "", name: "bash", arguments: '{"command":"ls"}' },
        { id: "", name: "bash", arguments: '{"command":"pwd"}' },
      ],
    });
    const answer = assemble(await collect(gemini().stream(hello)));
    expect(answer.finishReason).toBe("tool_calls");
    expect(answer.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ["bash", { command: "ls" }],
      ["bash", { command: "pwd" }],
    ]);
    const [a, b] = answer.toolCalls;
    expect(a?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(b?.id).not.toBe(a?.id);
    expect(answer.signature).toBe(`gemini:${FAKE_THOUGHT_SIGNATURE}`);
  });

  test("a stream cut mid-answer is an error, not a short answer", async () => {
    fake.script({ text: "a b c d e f", cutAfterChunks: 3 });
    const err = await failure(() => collect(gemini({ maxRetries: 0 }).stream(hello)));
    expect(err.message).toContain("provider 'p'");
  });

  test("429 then success is retried", async () => {
    fake.script({ error: { status: 429, message: "quota" } }, { text: "fine" });
    expect(assemble(await collect(gemini().stream(hello))).content).toBe("fine");
    expect(fake.requests.length).toBe(2);
  });

  test("401 names the provider, says the key was refused, and never prints it", async () => {
    fake.script({ error: { status: 401, message: `API key not valid: ${KEY}` } });
    const err = await failure(() => collect(gemini().stream(hello)));
    expect(err.message).toContain("provider 'p'");
    expect(err.message).toContain("refused the API key");
    expect(err.message).not.toContain(KEY);
    expect(fake.requests.length).toBe(1);
  });

  test("404 says which model at which provider", async () => {
    fake.script({ error: { status: 404, message: "models/gemini-x is not found" } });
    const err = await failure(() => gemini().complete(hello));
    expect(err.message).toContain("model 'gemini-x'");
    expect(err.message).toContain("provider 'p'");
  });
});

describe("non-streaming", () => {
  test("generateContent: text, thoughts, calls, usage", async () => {
    fake.script({ text: "done", thinking: "hmm", toolCalls: [{ id: "", name: "bash", arguments: '{"command":"pwd"}' }] });
    const res = await gemini().complete(hello);
    expect(fake.requests[0]?.path).toBe("/v1beta/models/gemini-x:generateContent");
    expect(res.content).toBe("done");
    expect(res.reasoning).toBe("hmm");
    expect(res.toolCalls[0]?.name).toBe("bash");
    expect(res.toolCalls[0]?.id).toMatch(/^call_/);
    expect(res.finishReason).toBe("tool_calls");
    expect(res.usage?.promptTokens).toBe(10);
  });
});

describe("request shape", () => {
  test("system instruction, function declarations, calls and responses paired by id, one turn of responses", async () => {
    await collect(
      gemini().stream({
        model: "gemini-x",
        system: "be brief",
        messages: [
          { role: "user", content: "list files" },
          {
            role: "assistant",
            content: "",
            reasoningSignature: "gemini:sig",
            toolCalls: [
              { id: "c1", name: "bash", arguments: '{"command":"ls"}' },
              { id: "c2", name: "bash", arguments: "not json" },
            ],
          },
          { role: "tool", content: "a.txt", toolCallId: "c1", name: "bash" },
          { role: "tool", content: "b.txt", toolCallId: "c2", name: "bash" },
        ],
        tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: { command: { type: "string" } } } }],
      }),
    );
    const body = fake.requests[0]?.body;
    expect(body.systemInstruction).toEqual({ parts: [{ text: "be brief" }], role: "user" });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [{ name: "bash", description: "run", parametersJsonSchema: { type: "object", properties: { command: { type: "string" } } } }],
      },
    ]);
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "list files" }] },
      {
        role: "model",
        parts: [
          { functionCall: { id: "c1", name: "bash", args: { command: "ls" } }, thoughtSignature: "sig" },
          { functionCall: { id: "c2", name: "bash", args: {} } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "c1", name: "bash", response: { output: "a.txt" } } },
          { functionResponse: { id: "c2", name: "bash", response: { output: "b.txt" } } },
        ],
      },
    ]);
  });

  test("an Anthropic signature is not sent to Gemini", () => {
    const req = toGeminiRequest({
      model: "g",
      messages: [{ role: "assistant", content: "", reasoningSignature: "anthropic-sig", toolCalls: [{ id: "t", name: "bash", arguments: "{}" }] }],
    });
    expect(req.contents[0]?.parts?.[0]?.thoughtSignature).toBeUndefined();
  });

  test("base_url given with the API version", async () => {
    fake.script({ text: "ok" });
    expect((await gemini({ baseUrl: `${fake.url}/v1beta/` }).complete(hello)).content).toBe("ok");
    expect(fake.requests[0]?.path).toBe("/v1beta/models/gemini-x:generateContent");
  });
});
