// A fake Anthropic Messages server (Bun.serve on loopback) speaking the real
// wire format, streaming and not, driven by ScriptedTurns.
import {
  DEFAULT_USAGE,
  FakeState,
  type FakeLLM,
  type ScriptedTurn,
  type SseEvent,
  endlessLineResponse,
  garbageResponse,
  halves,
  json,
  pieces,
  sleep,
  textPieces,
  fakeHandle,
} from "./fake-llm.ts";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** The signature the fake attaches to every thinking block. */
export const FAKE_SIGNATURE = "fake-signature";

export async function startFakeAnthropic(): Promise<FakeLLM> {
  const state = new FakeState();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      // Any prefix, as behind a proxy (`https://proxy/anthropic/v1/messages`).
      if (req.method !== "POST" || !path.endsWith("/v1/messages")) {
        return errorResponse(404, `no route for ${req.method} ${path}`);
      }
      const { body } = await state.record(req, path);
      const turn = state.next(body);
      if (turn.delayMs) await sleep(turn.delayMs);
      if (turn.error) return errorResponse(turn.error.status, turn.error.message);
      if (turn.garbage !== undefined) return garbageResponse(turn.garbage);
      if (turn.endlessLine) return endlessLineResponse(state);
      const model = typeof body?.model === "string" ? body.model : "claude-fake";
      if (body?.stream) return state.sse(streamEvents(turn, model), turn);
      return json(message(turn, model));
    },
  });
  return fakeHandle(server, state);
}

function errorResponse(status: number, message: string): Response {
  return json({ type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } }, status);
}

/** Anthropic's input_tokens exclude cache reads; the adapter adds them back into prompt tokens. */
function usageOf(turn: ScriptedTurn) {
  const u = turn.usage ?? DEFAULT_USAGE;
  const cacheHit = turn.usage?.cacheHit ?? 0;
  return {
    input_tokens: u.prompt - cacheHit,
    output_tokens: u.completion,
    cache_read_input_tokens: cacheHit,
    cache_creation_input_tokens: 0,
  };
}

function stopReason(turn: ScriptedTurn): string {
  return turn.toolCalls?.length ? "tool_use" : "end_turn";
}

function toolInput(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

function streamEvents(turn: ScriptedTurn, model: string): SseEvent[] {
  const ev = (type: string, data: Record<string, unknown>, content = false): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, ...data }),
    content,
  });
  const usage = usageOf(turn);
  const events: SseEvent[] = [
    ev("message_start", {
      message: {
        id: `msg_${crypto.randomUUID()}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    ev("ping", {}),
  ];
  let index = 0;
  if (turn.thinking) {
    events.push(ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    for (const p of pieces(turn.thinking)) {
      events.push(ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: p } }, true));
    }
    events.push(ev("content_block_delta", { index, delta: { type: "signature_delta", signature: FAKE_SIGNATURE } }));
    events.push(ev("content_block_stop", { index }));
    index++;
  }
  if (turn.text || turn.hugeText) {
    events.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const p of textPieces(turn)) {
      events.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: p } }, true));
    }
    events.push(ev("content_block_stop", { index }));
    index++;
  }
  for (const call of turn.toolCalls ?? []) {
    events.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }, true));
    for (const part of halves(call.arguments)) {
      events.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } }, true));
    }
    events.push(ev("content_block_stop", { index }));
    index++;
  }
  if (turn.truncate) return events;
  events.push(
    ev("message_delta", {
      delta: { stop_reason: stopReason(turn), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  events.push(ev("message_stop", {}));
  return events;
}

function message(turn: ScriptedTurn, model: string) {
  const content: unknown[] = [];
  if (turn.thinking) content.push({ type: "thinking", thinking: turn.thinking, signature: FAKE_SIGNATURE });
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    content.push({ type: "tool_use", id: call.id, name: call.name, input: toolInput(call.arguments) });
  }
  return {
    id: `msg_${crypto.randomUUID()}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: usageOf(turn),
  };
}
