// The Anthropic adapter speaks HTTP with fetch (src/model/anthropic/adapter.ts).
// Here it is held to the `@anthropic-ai/sdk` client it replaced, configured
// as the adapter used it: the same request on the wire (method, URL, body
// byte for byte, the headers a server reads), the same events read from a
// stream, and for every failure the SDK told apart the same error (message,
// kind, status, transience).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { createAnthropicAdapter } from "../../src/model/anthropic/adapter.ts";
import { toMessagesRequest } from "../../src/model/anthropic/request.ts";
import { AnthropicStreamState } from "../../src/model/anthropic/response.ts";
import { anthropicBaseUrl } from "../../src/base/base-url.ts";
import { ErrorBodies, type ErrorContext, toProviderError } from "../support/sdk-reference.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { ModelRequest } from "../../src/model/types.ts";
import { KEY } from "./helpers.ts";
import {
  jsonReply,
  outcome,
  sampleRequest,
  startWireCapture,
  type WireCapture,
  connectionFailureTests,
  adapterCall,
  sameFailuresAsSdk,
  type WireSides,
} from "../support/wire-capture.ts";

let wire: WireCapture;
beforeAll(() => {
  wire = startWireCapture(["authorization", "x-api-key", "anthropic-version", "anthropic-beta", "content-type", "accept"]);
});
afterAll(() => wire.stop());

const settings = (over: Partial<ProviderSettings> = {}): ProviderSettings => ({
  name: "p",
  kind: "anthropic",
  models: ["m"],
  apiKey: KEY,
  baseUrl: wire.origin,
  ...over,
});

/** The SDK call the adapter made before it spoke HTTP itself: the neutral chunks, then the error mapped as it was. */
async function sdkCall(p: ProviderSettings, request: ModelRequest, streamed: boolean): Promise<unknown[]> {
  const baseUrl = anthropicBaseUrl(p);
  const bodies = new ErrorBodies();
  const client = new Anthropic({
    apiKey: p.apiKey ?? "",
    ...(p.apiKey ? {} : { defaultHeaders: { "x-api-key": null, authorization: null } }),
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: 2 ** 31 - 1,
    fetch: bodies.fetch,
    logLevel: "off",
  });

  const ctx: ErrorContext = { baseUrl, secrets: [p.apiKey], bodies, classes: Anthropic };
  const out: unknown[] = [];
  try {
    if (!streamed) {
      out.push(await client.messages.create({ ...toMessagesRequest(request), stream: false }, { signal: request.signal }));
      return out;
    }
    const state = new AnthropicStreamState();
    const events = await client.messages.create({ ...toMessagesRequest(request), stream: true }, { signal: request.signal });
    for await (const event of events) out.push(...state.push(event));
    return out;
  } catch (err) {
    return [...out, outcome(toProviderError(err, ctx))];
  }
}

const ourCall = adapterCall(createAnthropicAdapter);

const request = (over: Partial<ModelRequest> = {}) => sampleRequest("claude-x", over);

const sides: WireSides = { wire: () => wire, at: (o) => settings({ baseUrl: o }), request, ours: ourCall, sdk: sdkCall };

const PROVIDERS: Record<string, () => ProviderSettings> = {
  "with a key": () => settings(),
  "a keyless proxy": () => settings({ apiKey: undefined }),
  "a base URL given with /v1/messages": () => settings({ baseUrl: `${wire.origin}/v1/messages/` }),
};

describe("the request on the wire is the SDK's", () => {
  for (const [name, provider] of Object.entries(PROVIDERS)) {
    for (const streamed of [true, false]) {
      for (const over of [{}, { maxTokens: 256, thinking: true }]) {
        test(`${name}, ${streamed ? "streamed" : "whole"}${"thinking" in over ? ", thinking with a limit" : ""}`, async () => {
          wire.reply = () => jsonReply(200, {});
          wire.seen.length = 0;
          await sdkCall(provider(), request(over), streamed);
          await ourCall(provider(), request(over), streamed);
          expect(wire.seen).toHaveLength(2);
          const [sdk, ours] = wire.seen;
          expect(ours).toEqual(sdk!);
          expect(ours!.body.length).toBeGreaterThan(100);
        });
      }
    }
  }
});

const sse = (...events: [string | null, unknown][]) =>
  new Response(
    events.map(([name, data]) => `${name === null ? "" : `event: ${name}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`).join(""),
    { headers: { "content-type": "text/event-stream" } },
  );
const start = [
  "message_start",
  {
    type: "message_start",
    message: { id: "m", type: "message", role: "assistant", content: [], model: "claude-x", usage: { input_tokens: 5, output_tokens: 1 } },
  },
] as [string, unknown];
const block = ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }] as [string, unknown];
const delta = (text: string) => ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }] as [string, unknown];
const stop = [
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } }],
  ["message_stop", { type: "message_stop" }],
] as [string, unknown][];

describe("a stream is read as the SDK read it", () => {
  const STREAMS: Record<string, () => Response> = {
    "text with pings and unnamed messages among it": () =>
      sse(start, ["ping", { type: "ping" }], block, delta("hel"), [null, "not JSON, and skipped"], delta("lo"), ...stop),
    "an error event after output": () =>
      sse(start, block, delta("a"), ["error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }]),
    "an error event that is not JSON": () => sse(start, ["error", "upstream went away"]),
    "an invalid request error event": () => sse(["error", { type: "error", error: { type: "invalid_request_error", message: "bad" } }]),
    "an event whose data is not JSON": () => sse(start, ["content_block_delta", "{nope"]),
    "no message_stop": () => sse(start, block, delta("cut")),
  };
  for (const [name, make] of Object.entries(STREAMS)) {
    test(name, async () => {
      wire.reply = make;
      const sdk = await sdkCall(settings(), request(), true);
      const ours = await ourCall(settings(), request(), true);
      // Without message_stop the SDK's stream ended quietly and the adapter said so; both sides here end in the adapter's words.
      if (name === "no message_stop") expect(ours.at(-1)).toMatchObject({ kind: "stream" });
      else expect(ours).toEqual(sdk);
    });
  }
});

const REPLIES: Record<string, () => Response> = {
  "400 with an Anthropic error body": () => jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: "max_tokens: too large" } }),
  "401 echoing the key": () => jsonReply(401, { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } }),
  "403 empty": () => new Response("", { status: 403 }),
  "404 plain text": () => new Response("no such model", { status: 404 }),
  "429 with retry-after": () =>
    new Response(JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "slow" } }), { status: 429, headers: { "retry-after": "1" } }),
  "500 HTML": () => new Response(`<html>${"oops ".repeat(100)}</html>`, { status: 500, headers: { "content-type": "text/html" } }),
  "529 overloaded": () => jsonReply(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
};

describe("each failure is the SDK's error", () => {
  sameFailuresAsSdk(sides, REPLIES, [KEY]);

  connectionFailureTests(sides);
});
