// A fake Bedrock Runtime server (Bun.serve on loopback) speaking the real
// wire format: `POST /model/<id>/converse-stream` answered as an AWS binary
// event stream (encoded with @smithy/eventstream-codec, as AWS does) and
// `POST /model/<id>/converse` answered as JSON, driven by ScriptedTurns.
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { DEFAULT_USAGE, FakeState, type FakeLLM, type ScriptedTurn, halves, json, pieces, sleep, fakeHandle } from "./fake-llm.ts";

const EXCEPTIONS: Record<number, string> = {
  400: "ValidationException",
  401: "UnrecognizedClientException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** The signature the fake attaches to reasoning content. */
export const FAKE_REASONING_SIGNATURE = "fake-bedrock-signature";

const codec = new EventStreamCodec(toUtf8, fromUtf8);

export async function startFakeBedrock(): Promise<FakeLLM> {
  const state = new FakeState();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const route = /^\/model\/([^/]+)\/(converse-stream|converse)$/.exec(path);
      if (req.method !== "POST" || !route) return errorResponse(404, `no route for ${req.method} ${path}`);
      const streaming = route[2] === "converse-stream";
      const { body } = await state.record(req, path);
      const turn = state.next({ stream: streaming, messages: body?.messages });
      if (turn.delayMs) await sleep(turn.delayMs);
      if (turn.error) return errorResponse(turn.error.status, turn.error.message);
      if (streaming) return state.frames(streamFrames(turn), "application/vnd.amazon.eventstream", turn);
      return json(converse(turn));
    },
  });
  return fakeHandle(server, state);
}

function errorResponse(status: number, message: string): Response {
  const type = EXCEPTIONS[status] ?? "InternalServerException";
  return new Response(JSON.stringify({ message }), {
    status,
    headers: { "content-type": "application/json", "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
  });
}

function usage(turn: ScriptedTurn) {
  const u: NonNullable<ScriptedTurn["usage"]> = turn.usage ?? DEFAULT_USAGE;
  return {
    inputTokens: u.prompt - (u.cacheHit ?? 0),
    outputTokens: u.completion,
    totalTokens: u.prompt + u.completion,
    ...(u.cacheHit !== undefined ? { cacheReadInputTokens: u.cacheHit, cacheWriteInputTokens: 0 } : {}),
  };
}

function stopReason(turn: ScriptedTurn): string {
  return turn.toolCalls?.length ? "tool_use" : "end_turn";
}

/** One event-stream message, as AWS frames them (prelude, headers, JSON payload, CRCs). */
function eventFrame(type: string, payload: unknown, content = false) {
  const bytes = codec.encode({
    headers: {
      ":event-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
  return { bytes, content };
}

function streamFrames(turn: ScriptedTurn) {
  const frames = [eventFrame("messageStart", { role: "assistant" })];
  let block = 0;
  if (turn.thinking) {
    for (const t of pieces(turn.thinking)) {
      frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: block, delta: { reasoningContent: { text: t } } }, true));
    }
    frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: block, delta: { reasoningContent: { signature: FAKE_REASONING_SIGNATURE } } }));
    frames.push(eventFrame("contentBlockStop", { contentBlockIndex: block++ }));
  }
  if (turn.text) {
    for (const t of pieces(turn.text)) frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: block, delta: { text: t } }, true));
    frames.push(eventFrame("contentBlockStop", { contentBlockIndex: block++ }));
  }
  for (const call of turn.toolCalls ?? []) {
    frames.push(eventFrame("contentBlockStart", { contentBlockIndex: block, start: { toolUse: { toolUseId: call.id, name: call.name } } }, true));
    for (const part of halves(call.arguments)) {
      frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: block, delta: { toolUse: { input: part } } }, true));
    }
    frames.push(eventFrame("contentBlockStop", { contentBlockIndex: block++ }));
  }
  if (turn.streamError) {
    // An exception inside the event stream, as Bedrock sends throttling or model errors mid-answer.
    const type = EXCEPTIONS[turn.streamError.status] ?? "InternalServerException";
    const name = type.charAt(0).toLowerCase() + type.slice(1);
    frames.push({
      bytes: codec.encode({
        headers: {
          ":exception-type": { type: "string", value: name },
          ":content-type": { type: "string", value: "application/json" },
          ":message-type": { type: "string", value: "exception" },
        },
        body: fromUtf8(JSON.stringify({ message: turn.streamError.message })),
      }),
      content: false,
    });
    return frames;
  }
  frames.push(eventFrame("messageStop", { stopReason: stopReason(turn) }));
  frames.push(eventFrame("metadata", { usage: usage(turn), metrics: { latencyMs: 1 } }));
  return frames;
}

function converse(turn: ScriptedTurn) {
  const content: unknown[] = [];
  if (turn.thinking) content.push({ reasoningContent: { reasoningText: { text: turn.thinking, signature: FAKE_REASONING_SIGNATURE } } });
  if (turn.text) content.push({ text: turn.text });
  for (const c of turn.toolCalls ?? []) content.push({ toolUse: { toolUseId: c.id, name: c.name, input: JSON.parse(c.arguments) } });
  return {
    output: { message: { role: "assistant", content } },
    stopReason: stopReason(turn),
    usage: usage(turn),
    metrics: { latencyMs: 1 },
  };
}
