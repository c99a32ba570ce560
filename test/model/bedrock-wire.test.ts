// The Bedrock adapter speaks HTTP with fetch and signs its requests itself
// (src/model/bedrock/adapter.ts). Here it is held to the
// `@aws-sdk/client-bedrock-runtime` client it replaced, configured as the
// adapter used it: the same request on the wire (method, URL, body byte for
// byte, a signature AWS accepts: test/model/bedrock-sigv4.test.ts checks it
// against the SDK's signer), the same events read from an event stream, and
// for every failure the SDK told apart the same error (message, kind, status,
// transience). Where the adapter answers differently on purpose, the test
// says so and checks the difference.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConverseCommand, ConverseStreamCommand, type ConverseResponse as SdkResponse } from "@aws-sdk/client-bedrock-runtime";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { createBedrockAdapter } from "../../src/model/bedrock/adapter.ts";
import { BedrockStreamState, fromConverse } from "../../src/model/bedrock/response.ts";
import type { ConverseResponse, ConverseStreamOutput } from "../../src/model/bedrock/wire.ts";
import { ProviderError, httpError } from "../../src/model/errors.ts";
import { sdkClient, sdkError, sdkInput } from "../support/bedrock-sdk-reference.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { ModelRequest } from "../../src/model/types.ts";
import {
  outcome,
  sampleRequest,
  startWireCapture,
  type WireCapture,
  connectionFailureTests,
  adapterCall,
  sameFailuresAsSdk,
  sameStreamsAsSdk,
  type WireSides,
} from "../support/wire-capture.ts";

const ACCESS = "AKIAWIRETEST0000";
const SECRET = "wire/test+SECRET/0123456789abcdef";

let wire: WireCapture;
beforeAll(() => {
  wire = startWireCapture(["content-type", "x-amz-content-sha256", "authorization", "x-amz-security-token"]);
});
afterAll(() => wire.stop());

const settings = (over: Partial<ProviderSettings> = {}): ProviderSettings => ({
  name: "p",
  kind: "bedrock",
  models: ["m"],
  region: "us-east-1",
  accessKey: ACCESS,
  secretKey: SECRET,
  baseUrl: wire.origin,
  ...over,
});

/** The SDK call the adapter made before it spoke HTTP itself: the neutral chunks, then the error mapped as it was. */
async function sdkCall(p: ProviderSettings, request: ModelRequest, streamed: boolean): Promise<unknown[]> {
  const client = sdkClient(p);
  const out: unknown[] = [];
  try {
    if (!streamed) {
      out.push(fromConverse((await client.send(new ConverseCommand(sdkInput(request)), { abortSignal: request.signal })) as SdkResponse as ConverseResponse));
      return out;
    }
    const state = new BedrockStreamState();
    const response = await client.send(new ConverseStreamCommand(sdkInput(request)), { abortSignal: request.signal });
    for await (const event of response.stream ?? []) out.push(...state.push(event as ConverseStreamOutput));
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    if (!state.stopped) throw new ProviderError("the SDK's stream ended without messageStop", { kind: "connection" });
    return out;
  } catch (err) {
    return [...out, outcome(err instanceof ProviderError ? err : sdkError(err, p, request.signal))];
  }
}

const ourCall = adapterCall(createBedrockAdapter);

const request = (over: Partial<ModelRequest> = {}) => sampleRequest("us.anthropic.claude-sonnet-4-5-20250929-v1:0", over);

const sides: WireSides = { wire: () => wire, at: (o) => settings({ baseUrl: o }), request, ours: ourCall, sdk: sdkCall };

/** An assistant step with reasoning, its signature, text and a call, then its result and a later system line. */
const withReasoning = (): ModelRequest => {
  const r = request({ thinking: true, maxTokens: 4096 });
  r.messages.splice(
    1,
    0,
    {
      role: "assistant",
      content: "looking",
      reasoning: "let me think",
      reasoningSignature: "sig==",
      toolCalls: [{ id: "t0", name: "bash", arguments: '{"command":"pwd"}' }],
    },
    { role: "tool", content: "", toolCallId: "t0", name: "bash" },
    { role: "system", content: "a later system line" },
  );
  return r;
};

const REQUESTS: Record<string, () => ModelRequest> = {
  plain: () => request(),
  "thinking (a Claude model)": () => request({ thinking: true }),
  "thinking with a limit": () => request({ thinking: true, maxTokens: 3000 }),
  "a limit, no tools, no system": () => ({ model: "amazon.nova-pro-v1:0", messages: [{ role: "user", content: "hi" }], maxTokens: 9 }),
  "thinking asked of a model that is not Claude": () => ({ ...request({ thinking: true }), model: "amazon.nova-pro-v1:0" }),
  "a step with reasoning and an empty result": withReasoning,
  "an inference profile ARN": () => ({ ...request(), model: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-x(1)" }),
};

const converseReply = () =>
  new Response(
    JSON.stringify({
      output: { message: { role: "assistant", content: [{ text: "ok" }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 1, outputTokens: 1 },
    }),
    {
      headers: { "content-type": "application/json" },
    },
  );

describe("the request on the wire is the SDK's", () => {
  for (const streamed of [true, false]) {
    for (const [shape, make] of Object.entries(REQUESTS)) {
      test(`${streamed ? "streamed" : "whole"}, ${shape}`, async () => {
        // Each call gets a whole answer of its own kind: the SDK waits for more of an event stream that is not one.
        wire.reply = streamed ? () => eventStream(start, text("ok"), stop(), metadata) : converseReply;
        wire.seen.length = 0;
        await sdkCall(settings(), make(), streamed);
        await ourCall(settings(), make(), streamed);
        expect(wire.seen).toHaveLength(2);
        const [sdk, ours] = wire.seen;
        expect({ ...ours!, headers: undefined }).toEqual({ ...sdk!, headers: undefined });
        expect(ours!.headers["content-type"]).toBe(sdk!.headers["content-type"]!);
        expect(ours!.headers["x-amz-content-sha256"]).toBe(sdk!.headers["x-amz-content-sha256"]!);
        expect(ours!.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${ACCESS}/`);
        expect(ours!.headers.authorization).toContain(
          "/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=",
        );
        expect(ours!.body.length).toBeGreaterThan(20);
      });
    }
  }
});

const codec = new EventStreamCodec(toUtf8, fromUtf8);
type Frame = Uint8Array;
const event = (type: string, payload: unknown): Frame =>
  codec.encode({
    headers: {
      ":event-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
const exception = (type: string, payload: unknown): Frame =>
  codec.encode({
    headers: {
      ":exception-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "exception" },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
const errorFrame = (code: string, message: string): Frame =>
  codec.encode({
    headers: {
      ":error-code": { type: "string", value: code },
      ":error-message": { type: "string", value: message },
      ":message-type": { type: "string", value: "error" },
    },
    body: new Uint8Array(0),
  });
/** Frames as one body, each frame split across two reads so the decoder must join them. */
const eventStream = (...frames: Frame[]) =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (const f of frames) {
          const half = Math.floor(f.length / 2);
          controller.enqueue(f.slice(0, half));
          controller.enqueue(f.slice(half));
        }
        controller.close();
      },
    }),
    { headers: { "content-type": "application/vnd.amazon.eventstream" } },
  );

const start = event("messageStart", { role: "assistant" });
const text = (t: string, index = 0) => event("contentBlockDelta", { contentBlockIndex: index, delta: { text: t }, p: "abcdefgh" });
const stop = (reason = "end_turn") => event("messageStop", { stopReason: reason });
const metadata = event("metadata", {
  usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10, cacheReadInputTokens: 2, cacheWriteInputTokens: 1 },
  metrics: { latencyMs: 5 },
});

describe("an event stream is read as the SDK read it", () => {
  const STREAMS: Record<string, () => Response> = {
    "text, reasoning with its signature, a tool call in pieces, usage": () =>
      eventStream(
        start,
        event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "hm" } } }),
        event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { signature: "SIG" } } }),
        event("contentBlockStop", { contentBlockIndex: 0 }),
        text("hel", 1),
        text("lo ü", 1),
        event("contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tu1", name: "bash" } } }),
        event("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"comm' } } }),
        event("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: 'and":"ls"}' } } }),
        stop("tool_use"),
        metadata,
      ),
    "an event nobody knows is passed over": () => eventStream(start, event("somethingNew", { x: 1 }), text("a"), stop(), metadata),
    "a throttling exception mid-answer": () => eventStream(start, text("a"), exception("throttlingException", { message: "Too many tokens" })),
    "a model error mid-answer": () => eventStream(start, exception("modelStreamErrorException", { message: "model failed", originalStatusCode: 424 })),
    "a validation exception": () => eventStream(exception("validationException", { message: "bad input" })),
    "an exception without a message": () => eventStream(exception("serviceUnavailableException", {})),
    "an error message": () => eventStream(start, errorFrame("InternalFailure", "the stream broke")),
    "max tokens": () => eventStream(start, text("a"), stop("max_tokens"), metadata),
  };
  sameStreamsAsSdk(sides, STREAMS, [SECRET]);

  test("a stream without messageStop: the same chunks, then the error every adapter gives a cut answer", async () => {
    wire.reply = () => eventStream(start, text("cut"));
    const sdk = await sdkCall(settings(), request(), true);
    const ours = await ourCall(settings(), request(), true);
    expect(ours.slice(0, -1)).toEqual(sdk.slice(0, -1));
    expect(ours.at(-1)).toMatchObject({ kind: "stream", error: expect.stringContaining("ended without messageStop") });
  });

  test("a message whose checksum is wrong fails the answer as malformed", async () => {
    const bad = text("x");
    bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
    wire.reply = () => eventStream(start, bad, stop());
    const ours = await ourCall(settings(), request(), true);
    expect(ours.at(-1)).toEqual({ error: "provider error: malformed event stream (message checksum)", kind: "stream", status: undefined, transient: false });
    const sdk = await sdkCall(settings(), request(), true);
    expect(sdk.at(-1)).toMatchObject({ error: expect.stringContaining("checksum") });
  });

  test("a message longer than the answer cap fails before it is gathered", async () => {
    const cap = 4096;
    // The body limit is twice the cap and 64 KiB (src/model/body-limits.ts); this one message is past it.
    wire.reply = () => eventStream(start, text("y".repeat(2 * cap + 70 * 1024)), stop());
    const ours = await ourCall(settings({ maxAnswerBytes: cap } as Partial<ProviderSettings>), request(), true);
    expect(ours.at(-1)).toMatchObject({ kind: "stream" });
    expect((ours.at(-1) as { error: string }).error).toContain("answer");
  });
});

const errorReply =
  (status: number, type: string | null, body: string, contentType = "application/json") =>
  () =>
    new Response(body, {
      status,
      headers: {
        "content-type": contentType,
        ...(type === null ? {} : { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` }),
      },
    });

const REPLIES: Record<string, () => Response> = {
  "400 ValidationException": errorReply(
    400,
    "ValidationException",
    JSON.stringify({ message: "The model returned the following errors: max_tokens too large" }),
  ),
  "403 AccessDeniedException": errorReply(
    403,
    "AccessDeniedException",
    JSON.stringify({ message: "You don't have access to the model with the specified model ID." }),
  ),
  "403 with the type in the body only": errorReply(
    403,
    null,
    JSON.stringify({ __type: "com.amazon.coral.service#UnrecognizedClientException", message: "The security token included in the request is invalid." }),
  ),
  "404 ResourceNotFoundException": errorReply(404, "ResourceNotFoundException", JSON.stringify({ message: "Model not found" })),
  "429 ThrottlingException": errorReply(429, "ThrottlingException", JSON.stringify({ message: "Too many requests, please wait before trying again." })),
  "500 InternalServerException": errorReply(500, "InternalServerException", JSON.stringify({ message: "internal" })),
  "503 ServiceUnavailableException": errorReply(503, "ServiceUnavailableException", JSON.stringify({ message: "busy" })),
  "424 ModelErrorException": errorReply(424, "ModelErrorException", JSON.stringify({ message: "the model failed", originalStatusCode: 500 })),
  "an exception with no message": errorReply(400, "ValidationException", "{}"),
  "403 empty": errorReply(403, null, "", "text/plain"),
  "an exception with Message": errorReply(400, "ValidationException", JSON.stringify({ Message: "capitalised" })),
};

describe("each failure is the SDK's error", () => {
  sameFailuresAsSdk(sides, REPLIES, [SECRET]);

  test("an error page that is not JSON keeps its status (the SDK lost it to a parse error) and is shown as every adapter shows one", async () => {
    const page = `<html>${"bad gateway ".repeat(50)}</html>`;
    wire.reply = errorReply(502, null, page, "text/html");
    for (const streamed of [true, false]) {
      const sdk = await sdkCall(settings(), request(), streamed);
      const ours = await ourCall(settings(), request(), streamed);
      expect(sdk[0]).toMatchObject({ kind: "other", status: undefined, error: expect.stringContaining("JSON Parse error") });
      expect(ours).toEqual([{ error: httpError(502, page).message, kind: "http", status: 502, transient: true }]);
    }
  });

  test("a message echoing the keys is redacted", async () => {
    wire.reply = errorReply(403, "InvalidSignatureException", JSON.stringify({ message: `signature for ${ACCESS} with ${SECRET} does not match` }));
    for (const streamed of [true, false]) {
      const ours = await ourCall(settings(), request(), streamed);
      expect(ours).toEqual(await sdkCall(settings(), request(), streamed));
      expect(JSON.stringify(ours)).not.toContain(SECRET);
      expect(JSON.stringify(ours)).not.toContain(ACCESS);
    }
  });

  connectionFailureTests({ ...sides, sdkSaidLost: true });
});
