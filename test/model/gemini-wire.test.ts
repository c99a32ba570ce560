// The Gemini adapter speaks HTTP with fetch (src/model/gemini/adapter.ts).
// Here it is held to the `@google/genai` client it replaced, configured as
// the adapter used it: the same request on the wire (method, URL, body byte
// for byte, the headers a server reads), the same chunks read from a stream,
// long answers resumed at their checkpoints the same way, and for every
// failure the SDK told apart the same error (message, kind, status,
// transience). Where the adapter answers differently on purpose, the test
// says so and checks the difference.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GoogleGenAI } from "@google/genai";
import { createGeminiAdapter } from "../../src/model/gemini/adapter.ts";
import { GeminiStreamState, fromGenerateContent } from "../../src/model/gemini/response.ts";
import type { GenerateContentResponse } from "../../src/model/gemini/wire.ts";
import { MAX_HOPS } from "../../src/model/gemini/continuation.ts";
import { geminiEndpoint } from "../../src/base/base-url.ts";
import { ProviderError, httpError } from "../../src/model/errors.ts";
import { sdkError, sdkParams } from "../support/gemini-sdk-reference.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { ModelRequest } from "../../src/model/types.ts";
import { KEY } from "./helpers.ts";
import {
  jsonReply,
  outcome,
  sampleRequest,
  startWireCapture,
  type CapturedRequest,
  type WireCapture,
  connectionFailureTests,
  adapterCall,
  sameFailuresAsSdk,
  sameStreamsAsSdk,
  type WireSides,
} from "../support/wire-capture.ts";

let wire: WireCapture;
beforeAll(() => {
  wire = startWireCapture(["x-goog-api-key", "authorization", "content-type", "accept"]);
});
afterAll(() => wire.stop());

const settings = (over: Partial<ProviderSettings> = {}): ProviderSettings => ({
  name: "p",
  kind: "google",
  models: ["gemini-x"],
  apiKey: KEY,
  baseUrl: wire.origin,
  ...over,
});

/** The SDK call the adapter made before it spoke HTTP itself: the neutral chunks, then the error mapped as it was. */
async function sdkCall(p: ProviderSettings, request: ModelRequest, streamed: boolean): Promise<unknown[]> {
  const { baseUrl, apiVersion } = geminiEndpoint(p);
  const client = new GoogleGenAI({ apiKey: p.apiKey ?? "", httpOptions: { baseUrl, apiVersion } });
  const out: unknown[] = [];
  try {
    if (!streamed) {
      out.push(fromGenerateContent((await client.models.generateContent(sdkParams(request))) as GenerateContentResponse));
      return out;
    }
    const state = new GeminiStreamState();
    for await (const chunk of await client.models.generateContentStream(sdkParams(request))) out.push(...state.push(chunk as GenerateContentResponse));
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    if (!state.finished) throw new ProviderError(`provider error: stream from ${baseUrl} ended before the answer was complete`, { kind: "connection" });
    return out;
  } catch (err) {
    return [...out, outcome(err instanceof ProviderError ? err : sdkError(err, baseUrl, [p.apiKey], request.signal))];
  }
}

const ourCall = adapterCall(createGeminiAdapter);

const request = (over: Partial<ModelRequest> = {}) => sampleRequest("gemini-x", over);

const sides: WireSides = { wire: () => wire, at: (o) => settings({ baseUrl: o }), request, ours: ourCall, sdk: sdkCall };

/** An assistant step with text, a thought signature and two calls, and their results, before the sample's. */
const withSignature = (): ModelRequest => {
  const r = request({ maxTokens: 300, thinking: true });
  r.messages.splice(
    1,
    0,
    {
      role: "assistant",
      content: "looking",
      reasoningSignature: "gemini:SIG",
      toolCalls: [
        { id: "c0", name: "bash", arguments: '{"command":"pwd"}' },
        { id: "c9", name: "bash", arguments: "not json" },
      ],
    },
    { role: "tool", content: "/", toolCallId: "c0", name: "bash" },
    { role: "tool", content: "?", toolCallId: "c9", name: "bash" },
    { role: "system", content: "a later system line" },
  );
  return r;
};

const PROVIDERS: Record<string, () => ProviderSettings> = {
  "with a key": () => settings(),
  "a base URL given with /v1beta": () => settings({ baseUrl: `${wire.origin}/v1beta/` }),
  "a base URL given with /v1": () => settings({ baseUrl: `${wire.origin}/v1` }),
};

const REQUESTS: Record<string, () => ModelRequest> = {
  plain: () => request(),
  "thinking with a limit": () => request({ maxTokens: 256, thinking: true }),
  "thinking, no limit": () => request({ thinking: true }),
  "a limit, no tools, no system": () => ({ model: "gemini-x", messages: [{ role: "user", content: "hi" }], maxTokens: 9 }),
  "a step with a signature": withSignature,
  "a tuned model's name": () => ({ ...request(), model: "tunedModels/mine-1" }),
};

const finished = (text: string) => jsonReply(200, { candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP" }] });

describe("the request on the wire is the SDK's", () => {
  for (const [name, provider] of Object.entries(PROVIDERS)) {
    for (const streamed of [true, false]) {
      for (const [shape, make] of Object.entries(REQUESTS)) {
        test(`${name}, ${streamed ? "streamed" : "whole"}, ${shape}`, async () => {
          wire.reply = () => finished("ok");
          wire.seen.length = 0;
          await sdkCall(provider(), make(), streamed);
          await ourCall(provider(), make(), streamed);
          expect(wire.seen).toHaveLength(2);
          const [sdk, ours] = wire.seen;
          expect(ours).toEqual(sdk!);
          expect(ours!.body.length).toBeGreaterThan(20);
        });
      }
    }
  }

  test("a keyless proxy: the same request, without the empty key header the SDK sent", async () => {
    wire.reply = () => finished("ok");
    wire.seen.length = 0;
    const p = settings({ apiKey: undefined });
    await sdkCall(p, request(), true);
    await ourCall(p, request(), true);
    const [sdk, ours] = wire.seen;
    expect(sdk!.headers["x-goog-api-key"]).toBe("");
    expect(ours!.headers["x-goog-api-key"]).toBeNull();
    expect({ ...ours!, headers: { ...ours!.headers, "x-goog-api-key": "" } } as CapturedRequest).toEqual(sdk!);
  });

  test("a model name that could leave its path is refused before any request", async () => {
    for (const model of ["../files", "m?alt=x", "m&x", "m#frag"]) {
      wire.seen.length = 0;
      for (const streamed of [true, false]) {
        const ours = await ourCall(settings(), request({ model }), streamed);
        expect(ours).toEqual([{ error: `provider error: invalid model name '${model}'`, kind: "other", status: undefined, transient: false }]);
      }
      expect(wire.seen).toHaveLength(0);
    }
  });
});

const sse = (...events: (unknown | [string, unknown])[]) =>
  new Response(
    events
      .map((e) => {
        if (Array.isArray(e) && e[0] === "raw") return String(e[1]);
        const data = typeof e === "string" ? e : JSON.stringify(e);
        return `data: ${data}\r\n\r\n`;
      })
      .join(""),
    { headers: { "content-type": "text/event-stream" } },
  );
const text = (t: string, more: Record<string, unknown> = {}) => ({ candidates: [{ content: { parts: [{ text: t }], role: "model" }, ...more }] });
const usage = { promptTokenCount: 7, candidatesTokenCount: 3, thoughtsTokenCount: 2, cachedContentTokenCount: 1, totalTokenCount: 12 };
const call = {
  candidates: [{ content: { parts: [{ functionCall: { id: "k1", name: "bash", args: { command: "ls" } }, thoughtSignature: "S" }], role: "model" } }],
};

describe("a stream is read as the SDK read it", () => {
  const STREAMS: Record<string, () => Response> = {
    "text, thoughts, a call and usage": () =>
      sse({ candidates: [{ content: { parts: [{ text: "hm", thought: true }], role: "model" } }] }, text("hel"), call, text("lo", { finishReason: "STOP" }), {
        usageMetadata: usage,
      }),
    "comments and keep-alives among the chunks": () => sse(["raw", ": ping\n\n"], text("a"), ["raw", ":\n\n"], text("b", { finishReason: "STOP" })),
    "an error event with an HTTP code first": () => sse({ error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } }),
    "an error event after output": () => sse(text("a"), { error: { code: 503, message: "overloaded", status: "UNAVAILABLE" } }),
    "an error object without a code is read as a chunk": () => sse({ error: { message: "odd" } }, text("a", { finishReason: "STOP" })),
    "an error event echoing the key": () => sse({ error: { code: 400, message: `bad key ${KEY}`, status: "INVALID_ARGUMENT" } }),
    "a chunk that is not JSON": () => sse(text("a"), "{nope"),
    "a finish reason other than STOP": () => sse(text("a", { finishReason: "MAX_TOKENS" }), { usageMetadata: usage }),
    "a 200 whose body is a JSON error": () => jsonReply(200, { error: { code: 500, message: "internal", status: "INTERNAL" } }),
  };
  sameStreamsAsSdk(sides, STREAMS, [KEY]);

  test("a stream without a finish reason: the same chunks, then the error every adapter gives a cut answer", async () => {
    wire.reply = () => sse(text("cut"));
    const sdk = await sdkCall(settings(), request(), true);
    const ours = await ourCall(settings(), request(), true);
    expect(ours.slice(0, -1)).toEqual(sdk.slice(0, -1));
    expect(ours.at(-1)).toMatchObject({ kind: "stream", error: expect.stringContaining("ended without a finishReason") });
  });

  test("a 200 that is not an event stream: an error either way (the adapter names it)", async () => {
    wire.reply = () => new Response("hello", { headers: { "content-type": "text/plain" } });
    const sdk = await sdkCall(settings(), request(), true);
    const ours = await ourCall(settings(), request(), true);
    expect(sdk.at(-1)).toMatchObject({ error: "provider error: Incomplete JSON segment at the end" });
    expect(ours).toEqual([
      { error: `provider error: ${wire.origin} answered 200 with a body that is not an event stream`, kind: "stream", status: undefined, transient: false },
    ]);
  });
});

/**
 * One request's answer in a resumed one: its chunks, then (streams only) a
 * chunk that breaks it, as a connection dropped mid-answer would (a failure
 * that is not the API refusing the request), or an error status.
 */
interface Hop {
  chunks: GenerateContentResponse[];
  breaks?: true;
  status?: number;
}

/** A hop as a stream, or (whole) as one answer holding its chunks' parts, last finish reason and checkpoint, and usage. */
function hopReply(hop: Hop, streamed: boolean): Response {
  if (hop.status) return jsonReply(hop.status, hop.chunks[0]);
  if (!streamed) {
    const candidates = hop.chunks.flatMap((c) => c.candidates ?? []);
    const last = candidates.findLast((c) => c.finishReason || c.continuationToken);
    const usageMetadata = hop.chunks.findLast((c) => c.usageMetadata)?.usageMetadata;
    const parts = candidates.flatMap((c) => c.content?.parts ?? []);
    return jsonReply(200, { candidates: [{ ...last, content: { parts, role: "model" } }], usageMetadata });
  }
  return sse(...hop.chunks, ...(hop.breaks ? ["{broken"] : []));
}

/** A reply for each request in turn; the last one repeats. */
function inTurn(hops: Hop[], streamed: boolean): () => Response {
  let i = 0;
  return () => hopReply(hops[Math.min(i++, hops.length - 1)]!, streamed);
}

describe("a long answer is resumed at its checkpoints as the SDK resumed it", () => {
  const CASES: Record<string, { hops: Hop[]; requests: number; streamOnly?: true }> = {
    "ended at a checkpoint (CONTINUATION), then finished": {
      hops: [
        {
          chunks: [text("one ", { continuationToken: "T1" }), text("two", { finishReason: "CONTINUATION", continuationToken: "T2" }), { usageMetadata: usage }],
        },
        { chunks: [text(" three", { finishReason: "STOP" }), { usageMetadata: usage }] },
      ],
      requests: 2,
    },
    "a checkpoint without a finish reason, then the body ended": {
      hops: [{ chunks: [text("one", { continuationToken: "T1" })] }, { chunks: [text(" two", { finishReason: "STOP" })] }],
      requests: 2,
    },
    "broken after a checkpoint": {
      hops: [{ chunks: [text("one", { continuationToken: "T1" })], breaks: true }, { chunks: [text(" two", { finishReason: "STOP" })] }],
      requests: 2,
      streamOnly: true,
    },
    "broken before any checkpoint, after content": {
      hops: [{ chunks: [text("one")], breaks: true }, { chunks: [text("never", { finishReason: "STOP" })] }],
      requests: 1,
      streamOnly: true,
    },
    "an error event after a checkpoint": {
      hops: [
        { chunks: [text("one", { continuationToken: "T1" }), { error: { code: 503, message: "busy", status: "UNAVAILABLE" } } as GenerateContentResponse] },
        { chunks: [text(" two", { finishReason: "STOP" })] },
      ],
      requests: 2,
      streamOnly: true,
    },
    "the same checkpoint again ends it": {
      hops: [
        { chunks: [text("one", { finishReason: "CONTINUATION", continuationToken: "T1" })] },
        { chunks: [text(" two", { finishReason: "CONTINUATION", continuationToken: "T1" })] },
      ],
      requests: 2,
      streamOnly: true,
    },
    "a resumed request refused": {
      hops: [
        { chunks: [text("one", { finishReason: "CONTINUATION", continuationToken: "T1" })] },
        { chunks: [{ error: { code: 400, message: "token expired", status: "INVALID_ARGUMENT" } } as GenerateContentResponse], status: 400 },
      ],
      requests: 2,
    },
    "a resumed request that keeps breaking with nothing new: tried 3 more times": {
      hops: [{ chunks: [text("one", { finishReason: "CONTINUATION", continuationToken: "T1" })] }, { chunks: [], breaks: true }],
      requests: 5,
      streamOnly: true,
    },
    "prompt feedback ends it": {
      hops: [{ chunks: [{ ...text("x", { continuationToken: "T1" }), promptFeedback: { blockReason: "SAFETY" } }] }, { chunks: [text("no")] }],
      requests: 1,
      streamOnly: true,
    },
  };
  for (const [name, { hops, requests, streamOnly }] of Object.entries(CASES)) {
    for (const streamed of streamOnly ? [true] : [true, false]) {
      test(`${name}, ${streamed ? "streamed" : "whole"}`, async () => {
        wire.reply = inTurn(hops, streamed);
        wire.seen.length = 0;
        const sdk = await sdkCall(settings(), request(), streamed);
        const sdkRequests = wire.seen.splice(0);
        wire.reply = inTurn(hops, streamed);
        const ours = await ourCall(settings(), request(), streamed);
        expect(wire.seen).toEqual(sdkRequests);
        expect(wire.seen).toHaveLength(requests);
        // A cut answer ends in the adapter's words (see above); everything before is the same.
        if (JSON.stringify(sdk.at(-1)).includes("ended before the answer")) {
          expect(ours.at(-1)).toMatchObject({ kind: "stream", error: expect.stringContaining("ended without a finishReason") });
          expect(ours.slice(0, -1)).toEqual(sdk.slice(0, -1));
        } else expect(ours).toEqual(sdk);
      });
    }
  }

  test("the second request carries the checkpoint, between tools and generationConfig", async () => {
    wire.reply = inTurn(CASES["ended at a checkpoint (CONTINUATION), then finished"]!.hops, true);
    wire.seen.length = 0;
    const chunks = await ourCall(settings(), request({ maxTokens: 50 }), true);
    expect(wire.seen).toHaveLength(2);
    expect(wire.seen[1]!.body).toContain(`}]}],"continuationToken":"T2","generationConfig":{"maxOutputTokens":50}}`);
    expect(JSON.parse(wire.seen[0]!.body).continuationToken).toBeUndefined();
    // Usage is summed over both requests; the checkpoint's finish reason is not passed on.
    expect(chunks.filter((c) => (c as { type: string }).type === "finish")).toEqual([{ type: "finish", reason: "stop" }]);
    expect(chunks.filter((c) => (c as { type: string }).type === "usage").at(-1)).toMatchObject({ usage: { promptTokens: 14, reasoningTokens: 4 } });
  });

  test(`a provider that never stops setting checkpoints gets ${MAX_HOPS} requests, not more`, async () => {
    for (const streamed of [true, false]) {
      let n = 0;
      wire.reply = () => hopReply({ chunks: [text(".", { finishReason: "CONTINUATION", continuationToken: `T${++n}` })] }, streamed);
      wire.seen.length = 0;
      const ours = await ourCall(settings(), request(), streamed);
      expect(ours.at(-1)).toMatchObject({ error: `provider error: the answer did not finish within ${MAX_HOPS} continuations` });
      expect(wire.seen).toHaveLength(MAX_HOPS);
    }
  });
});

const REPLIES: Record<string, () => Response> = {
  "400 with a Google error body": () => jsonReply(400, { error: { code: 400, message: "Invalid JSON payload", status: "INVALID_ARGUMENT" } }),
  "401 echoing the key": () => jsonReply(401, { error: { code: 401, message: `API key not valid: ${KEY}`, status: "UNAUTHENTICATED" } }),
  "429 with retry-after": () =>
    new Response(JSON.stringify({ error: { code: 429, message: "slow", status: "RESOURCE_EXHAUSTED" } }), {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "1" },
    }),
  "503 overloaded": () => jsonReply(503, { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }),
};

describe("each failure is the SDK's error", () => {
  sameFailuresAsSdk(sides, REPLIES, [KEY]);

  const NOT_JSON: Record<string, () => Response> = {
    "403 empty": () => new Response("", { status: 403 }),
    "404 plain text": () => new Response("no such model", { status: 404 }),
    "500 HTML": () => new Response(`<html>${"oops ".repeat(100)}</html>`, { status: 500, headers: { "content-type": "text/html" } }),
  };
  for (const [name, make] of Object.entries(NOT_JSON)) {
    test(`${name}: the SDK's status, kind and transience; the body shown as every adapter shows one`, async () => {
      for (const streamed of [true, false]) {
        wire.reply = make;
        const [sdk] = (await sdkCall(settings(), request(), streamed)) as { error: string }[];
        const [ours] = (await ourCall(settings(), request(), streamed)) as { error: string }[];
        const body = await make().text();
        expect({ ...ours, error: "" }).toEqual({ ...sdk!, error: "" });
        expect(ours!.error).toBe(httpError(make().status, body).message);
      }
    });
  }

  test("an error status whose JSON body does not parse keeps its status (the SDK lost it to a parse error)", async () => {
    wire.reply = () => new Response("{not json", { status: 502, headers: { "content-type": "application/json" } });
    for (const streamed of [true, false]) {
      const sdk = await sdkCall(settings(), request(), streamed);
      const ours = await ourCall(settings(), request(), streamed);
      expect(sdk[0]).toMatchObject({ kind: "other", status: undefined });
      expect(ours).toEqual([{ error: "provider error (HTTP 502): {not json...", kind: "http", status: 502, transient: true }]);
    }
  });

  test("a whole answer that is not JSON is said so (the SDK gave the parser's words)", async () => {
    wire.reply = () => new Response("<html>gateway</html>", { headers: { "content-type": "text/html" } });
    const sdk = await sdkCall(settings(), request(), false);
    const ours = await ourCall(settings(), request(), false);
    expect(sdk[0]).toMatchObject({ kind: "other", error: expect.stringContaining("JSON Parse error") });
    expect(ours).toEqual([{ error: "provider error: the answer is not JSON: <html>gateway</html>...", kind: "other", status: undefined, transient: false }]);
  });

  connectionFailureTests({ ...sides, sdkSaidLost: true });
});
