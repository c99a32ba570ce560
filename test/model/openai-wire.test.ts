// The OpenAI adapter speaks HTTP with fetch (src/model/openai/adapter.ts). Here
// it is held to the `openai` SDK it replaced, configured as the adapter used
// it: the same request on the wire (method, URL, body byte for byte, the
// headers a server reads) and, for every failure the SDK told apart, the same
// error (message, kind, status, transience).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI, { AzureOpenAI } from "openai";
import { Stream } from "openai/core/streaming";
import { createOpenAIAdapter, DEFAULT_AZURE_API_VERSION } from "../../src/model/openai/adapter.ts";
import { chatRequestJson, toChatRequest } from "../../src/model/openai/request.ts";
import { PROVIDER_KIND_TABLE } from "../../src/base/provider-kinds.ts";
import { ErrorBodies, type ErrorContext, toProviderError } from "../support/sdk-reference.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { ModelRequest } from "../../src/model/types.ts";
import { KEY } from "./helpers.ts";
import { jsonReply, outcome, sampleRequest, startWireCapture, type WireCapture, connectionFailureTests } from "../support/wire-capture.ts";

let wire: WireCapture;
let origin: string;
beforeAll(() => {
  wire = startWireCapture(["authorization", "api-key", "content-type", "accept"]);
  origin = wire.origin;
});
afterAll(() => wire.stop());

const settings = (over: Partial<ProviderSettings> & Pick<ProviderSettings, "kind">): ProviderSettings => ({
  name: "p",
  models: ["m"],
  apiKey: KEY,
  ...over,
});

/** The SDK call the adapter made before it spoke HTTP itself, with its errors mapped as they were. */
async function sdkCall(p: ProviderSettings, request: ModelRequest, streamed: boolean): Promise<unknown[]> {
  const baseUrl = PROVIDER_KIND_TABLE[p.kind].endpoint(p);
  const bodies = new ErrorBodies();
  const common = {
    apiKey: p.apiKey || (p.kind === "ollama" ? "ollama" : "no-key"),
    maxRetries: 0,
    timeout: 2 ** 31 - 1,
    fetch: bodies.fetch,
    organization: null,
    project: null,
    logLevel: "off" as const,
  };
  const client =
    p.kind === "azure"
      ? new AzureOpenAI({
          ...common,
          ...(/\/openai(\/|$)/.test(new URL(baseUrl).pathname) ? { baseURL: baseUrl } : { endpoint: baseUrl }),
          apiVersion: p.apiVersion || DEFAULT_AZURE_API_VERSION,
        })
      : new OpenAI({ ...common, baseURL: baseUrl });

  const ctx: ErrorContext = { baseUrl, secrets: [p.apiKey], bodies, classes: OpenAI };
  const field = p.kind === "azure" || new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  const limit = request.maxTokens === undefined ? {} : { [field]: request.maxTokens };
  const body = { ...toChatRequest(request), ...limit, ...(streamed ? { stream: true, stream_options: { include_usage: true } } : { stream: false }) };
  try {
    if (!streamed) return [await client.chat.completions.create(body as never, { signal: request.signal })];
    // Azure's client read the deployment from the body object; the others were handed the serialized body.
    const options =
      p.kind === "azure"
        ? { signal: request.signal }
        : {
            signal: request.signal,
            body: chatRequestJson(request, { ...limit, stream: true, stream_options: { include_usage: true } }),
            headers: { "content-type": "application/json" },
          };
    const response = await client.chat.completions
      .create((p.kind === "azure" ? body : { model: request.model, messages: [], stream: true }) as never, options)
      .asResponse();
    const chunks: unknown[] = [];
    for await (const chunk of Stream.fromSSEResponse(response, new AbortController(), client)) chunks.push(chunk);
    return chunks;
  } catch (err) {
    return [outcome(toProviderError(err, ctx))];
  }
}

async function ourCall(p: ProviderSettings, request: ModelRequest, streamed: boolean): Promise<unknown[]> {
  const adapter = createOpenAIAdapter(p);
  try {
    if (!streamed) return [await adapter.complete(request)];
    const chunks: unknown[] = [];
    for await (const chunk of adapter.stream(request)) chunks.push(chunk);
    return chunks;
  } catch (err) {
    return [outcome(err)];
  }
}

const request = (over: Partial<ModelRequest> = {}) => sampleRequest("gpt-x", over);

const PROVIDERS: Record<string, () => ProviderSettings> = {
  "an OpenAI-compatible server": () => settings({ kind: "openai", baseUrl: `${origin}/v1` }),
  "an OpenAI-compatible server given with /chat/completions": () => settings({ kind: "openai", baseUrl: `${origin}/v1/chat/completions/` }),
  "Ollama without a key": () => settings({ kind: "ollama", baseUrl: origin, apiKey: undefined }),
  "llama.cpp without a key": () => settings({ kind: "llama_cpp", baseUrl: `${origin}/v1`, apiKey: undefined }),
  "Azure by its resource endpoint": () => settings({ kind: "azure", baseUrl: origin, apiVersion: "2025-01-01-preview" }),
  "Azure by a base URL under /openai": () => settings({ kind: "azure", baseUrl: `${origin}/openai` }),
  "Azure by a base URL naming the deployment": () => settings({ kind: "azure", baseUrl: `${origin}/openai/deployments/dep` }),
};

describe("the request on the wire is the SDK's", () => {
  for (const [name, provider] of Object.entries(PROVIDERS)) {
    for (const streamed of [true, false]) {
      for (const maxTokens of [undefined, 256]) {
        test(`${name}, ${streamed ? "streamed" : "whole"}, ${maxTokens ? "with" : "without"} an answer limit`, async () => {
          wire.reply = () => new Response("{}", { headers: { "content-type": "application/json" } });
          wire.seen.length = 0;
          await sdkCall(provider(), request({ maxTokens, thinking: true }), streamed);
          await ourCall(provider(), request({ maxTokens, thinking: true }), streamed);
          expect(wire.seen).toHaveLength(2);
          const [sdk, ours] = wire.seen;
          expect(ours).toEqual(sdk!);
          expect(ours!.body.length).toBeGreaterThan(100);
        });
      }
    }
  }
});

const json = jsonReply;
const events = (...lines: string[]) => new Response(lines.map((l) => `data: ${l}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });

const REPLIES: Record<string, () => Response> = {
  "400 with an OpenAI error body": () => json(400, { error: { message: "bad request: messages", type: "invalid_request_error" } }),
  "401 echoing the key": () => json(401, { error: { message: `Incorrect API key provided: ${KEY}` } }),
  "403 empty": () => new Response("", { status: 403 }),
  "404 plain text": () => new Response("no such deployment", { status: 404 }),
  "408": () => json(408, { error: { message: "timeout" } }),
  "429 with retry-after": () => new Response(JSON.stringify({ error: { message: "slow down" } }), { status: 429, headers: { "retry-after": "1" } }),
  "500 HTML": () => new Response(`<html><body>${"oops ".repeat(100)}</body></html>`, { status: 500, headers: { "content-type": "text/html" } }),
  "503 JSON without a message": () => json(503, { detail: "overloaded" }),
  "529 a JSON string": () => json(529, "overloaded"),
};

/** Errors inside an event stream, which only a streamed call reads as such. */
const STREAM_REPLIES: Record<string, () => Response> = {
  "an error object inside the stream": () =>
    events(chunk({ content: "a" }), JSON.stringify({ error: { message: "server had an error", type: "server_error" } })),
  "an invalid request error inside the stream": () => events(JSON.stringify({ error: { message: "nope", type: "invalid_request_error" } })),
  "an error string inside the stream": () => events(JSON.stringify({ error: "gone" })),
};

describe("each failure is the SDK's error", () => {
  const cases = [
    ...Object.entries(REPLIES).flatMap(([name, make]) => [true, false].map((streamed) => ({ name, make, streamed }))),
    ...Object.entries(STREAM_REPLIES).map(([name, make]) => ({ name, make, streamed: true })),
  ];
  for (const { name, make, streamed } of cases) {
    test(`${name}, ${streamed ? "streamed" : "whole"}`, async () => {
      wire.reply = make;
      const p = settings({ kind: "openai", baseUrl: `${origin}/v1` });
      const sdk = await sdkCall(p, request(), streamed);
      const ours = await ourCall(p, request(), streamed);
      const last = ours.at(-1) as { error?: string };
      expect(last.error).toBeDefined();
      expect(last.error).not.toContain(KEY);
      // The SDK's reader ended the stream quietly after the chunks; the adapter then read them as pieces.
      expect(last).toEqual(sdk.at(-1) as never);
    });
  }

  connectionFailureTests({ wire: () => wire, at: (o) => settings({ kind: "openai", baseUrl: `${o}/v1` }), request, ours: ourCall, sdk: sdkCall });
});

test("a huge error body is read only as far as its message needs", async () => {
  let pulled = 0;
  wire.reply = () =>
    new Response(
      new ReadableStream({
        pull(c) {
          pulled += 65536;
          if (pulled > 64 * 1024 * 1024) return c.close();
          c.enqueue(new Uint8Array(65536).fill(120));
        },
      }),
      { status: 500 },
    );
  const p = settings({ kind: "openai", baseUrl: `${origin}/v1` });
  const [ours] = await ourCall(p, request(), true);
  expect(ours).toMatchObject({ kind: "http", status: 500, error: `provider error (HTTP 500): ${"x".repeat(200)}...` });
  expect(pulled).toBeLessThan(16 * 1024 * 1024);
});
