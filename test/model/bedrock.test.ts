// The Bedrock adapter through the real `@aws-sdk/client-bedrock-runtime` against the fake server.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { toConverseRequest } from "../../src/model/bedrock/request.ts";
import { FAKE_REASONING_SIGNATURE, startFakeBedrock } from "../support/fake-bedrock.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { assemble, collect, failure, modelFor } from "./helpers.ts";

let fake: FakeLLM;
beforeEach(async () => {
  await fake?.stop();
  fake = await startFakeBedrock();
});
afterAll(() => fake?.stop());

const MODEL = "anthropic.claude-x-v1:0";
const SECRET = "aws-secret-SECRET-abcdef0123456789";
const hello = { model: MODEL, messages: [{ role: "user" as const, content: "hi" }] };
const bedrock = (extra: { maxRetries?: number } = {}) =>
  modelFor({ kind: "bedrock", baseUrl: fake.url, region: "us-east-1", accessKey: "AKIDFAKE", secretKey: SECRET, apiKey: undefined, ...extra }, MODEL);

describe("streaming", () => {
  test("ConverseStream event stream: text, usage with cache reads, SigV4-signed request", async () => {
    fake.script({ text: "hello there, world", usage: { prompt: 50, completion: 9, cacheHit: 20 } });
    const chunks = await collect(bedrock().stream(hello));
    expect(chunks.filter((c) => c.type === "text").length).toBeGreaterThan(1);
    const answer = assemble(chunks);
    expect(answer.content).toBe("hello there, world");
    expect(answer.finishReason).toBe("stop");
    expect(answer.usage).toEqual({ promptTokens: 50, completionTokens: 9, totalTokens: 59, cacheHitTokens: 20, cacheMissTokens: 0 });
    const req = fake.requests[0];
    expect(decodeURIComponent(req?.path ?? "")).toBe(`/model/${MODEL}/converse-stream`);
    expect(req?.headers.authorization).toStartWith("AWS4-HMAC-SHA256 Credential=AKIDFAKE/");
    expect(JSON.stringify(req?.headers)).not.toContain(SECRET);
  });

  test("reasoning content streams as thinking with its signature; Claude models get a thinking budget", async () => {
    fake.script({ thinking: "step one, step two", text: "answer" });
    const chunks = await collect(bedrock().stream({ ...hello, thinking: true }));
    expect(fake.requests[0]?.body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 8192 } });
    const answer = assemble(chunks);
    expect(answer.reasoning).toBe("step one, step two");
    expect(answer.signature).toBe(FAKE_REASONING_SIGNATURE);
    expect(answer.content).toBe("answer");
  });

  test("toolUse blocks and input fragments become indexed tool calls", async () => {
    fake.script({
      text: "let me look",
      toolCalls: [
        { id: "tooluse_1", name: "bash", arguments: '{"command":"ls -la"}' },
        { id: "tooluse_2", name: "bash", arguments: '{"command":"pwd"}' },
      ],
    });
    const answer = assemble(await collect(bedrock().stream(hello)));
    expect(answer.toolCalls).toEqual([
      { id: "tooluse_1", name: "bash", arguments: '{"command":"ls -la"}' },
      { id: "tooluse_2", name: "bash", arguments: '{"command":"pwd"}' },
    ]);
    expect(answer.finishReason).toBe("tool_calls");
  });

  test("a stream cut mid-answer is an error naming the provider", async () => {
    fake.script({ text: "a b c d e f", cutAfterChunks: 3 });
    const err = await failure(() => collect(bedrock({ maxRetries: 0 }).stream(hello)));
    expect(err.message).toContain("provider 'p'");
  });

  test("ThrottlingException (429) then success is retried", async () => {
    fake.script({ error: { status: 429, message: "Too many requests" } }, { text: "fine" });
    expect(assemble(await collect(bedrock().stream(hello))).content).toBe("fine");
    expect(fake.requests.length).toBe(2);
  });

  test("refused credentials name the provider and never print the secret", async () => {
    fake.script({ error: { status: 403, message: `The security token included in the request is invalid ${SECRET}` } });
    const err = await failure(() => collect(bedrock().stream(hello)));
    expect(err.message).toContain("provider 'p' refused the API key (HTTP 403)");
    expect(err.message).not.toContain(SECRET);
    expect(fake.requests.length).toBe(1);
  });
});

describe("credentials", () => {
  test("without access_key and secret_key the AWS default chain applies (here: the environment)", async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = "AKIDFROMENV";
    process.env.AWS_SECRET_ACCESS_KEY = "env-secret-value";
    try {
      fake.script({ text: "signed with the chain" });
      const model = modelFor({ kind: "bedrock", baseUrl: fake.url, region: "eu-west-1", apiKey: undefined }, MODEL);
      expect((await model.complete(hello)).content).toBe("signed with the chain");
    } finally {
      for (const [key, value] of [
        ["AWS_ACCESS_KEY_ID", saved.id],
        ["AWS_SECRET_ACCESS_KEY", saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(fake.requests[0]?.headers.authorization).toStartWith("AWS4-HMAC-SHA256 Credential=AKIDFROMENV/");
    expect(fake.requests[0]?.headers.authorization).toContain("/eu-west-1/bedrock/aws4_request");
  });
});

describe("non-streaming", () => {
  test("Converse: text, reasoning, tool calls, usage", async () => {
    fake.script({ text: "done", thinking: "hmm", toolCalls: [{ id: "t1", name: "bash", arguments: '{"command":"pwd"}' }] });
    const res = await bedrock().complete(hello);
    expect(decodeURIComponent(fake.requests[0]?.path ?? "")).toBe(`/model/${MODEL}/converse`);
    expect(res).toEqual({
      content: "done",
      reasoning: "hmm",
      reasoningSignature: FAKE_REASONING_SIGNATURE,
      toolCalls: [{ id: "t1", name: "bash", arguments: '{"command":"pwd"}' }],
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      finishReason: "tool_calls",
    });
  });
});

describe("request shape", () => {
  test("system, toolConfig, toolUse and one user turn of toolResults", async () => {
    await collect(
      bedrock().stream({
        model: MODEL,
        system: "be brief",
        messages: [
          { role: "user", content: "list files" },
          { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "bash", arguments: '{"command":"ls"}' }] },
          { role: "tool", content: "a.txt", toolCallId: "t1", name: "bash" },
          { role: "user", content: "and?" },
        ],
        tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: {} } }],
      }),
    );
    const body = fake.requests[0]?.body;
    expect(body.system).toEqual([{ text: "be brief" }]);
    expect(body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "bash", description: "run", inputSchema: { json: { type: "object", properties: {} } } } }],
      toolChoice: { auto: {} },
    });
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "list files" }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "bash", input: { command: "ls" } } }] },
      { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: "a.txt" }] } }, { text: "and?" }] },
    ]);
  });

  test("no thinking fields for models that are not Claude", () => {
    expect(toConverseRequest({ model: "meta.llama3", thinking: true, messages: [] }).additionalModelRequestFields).toBeUndefined();
  });
});
