// A fake OpenAI Chat Completions server (Bun.serve on loopback) speaking the
// real wire format, streaming and not, driven by ScriptedTurns.
import {
  DEFAULT_USAGE,
  FakeState,
  paceOf,
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

export interface FakeOpenAIOptions {
  /** Model ids listed by `GET /v1/models`. */
  models?: string[];
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_exceeded",
};

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeLLM> {
  const state = new FakeState();
  const models = options.models ?? ["gpt-4o", "fake-model"];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
        await state.record(req, path);
        return json({
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })),
        });
      }
      // Any prefix: OpenAI-compatible servers and Azure's /openai/deployments/<name>/ nest the endpoint.
      if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
        return json({ error: { message: `no route for ${req.method} ${path}`, type: "invalid_request_error", code: null } }, 404);
      }
      const { body } = await state.record(req, path);
      const turn = state.next(body);
      if (turn.delayMs) await sleep(turn.delayMs);
      if (turn.error) {
        const { status, message } = turn.error;
        return json({ error: { message, type: ERROR_TYPES[status] ?? "server_error", code: null } }, status);
      }
      if (turn.garbage !== undefined) return garbageResponse(turn.garbage);
      if (turn.endlessLine) return endlessLineResponse(state);
      const model = typeof body?.model === "string" ? body.model : "fake-model";
      if (body?.stream) {
        const events = streamEvents(turn, model, body?.stream_options?.include_usage === true);
        return state.sse(events, turn.cutAfterChunks, turn.stallAfterChunks, paceOf(turn));
      }
      return json(completion(turn, model));
    },
  });
  return fakeHandle(server, state, "/v1");
}

function usageBody(turn: ScriptedTurn) {
  const u = turn.usage ?? DEFAULT_USAGE;
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: turn.usage?.cacheHit ?? 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function finishReason(turn: ScriptedTurn): string {
  return turn.toolCalls?.length ? "tool_calls" : "stop";
}

function streamEvents(turn: ScriptedTurn, model: string, includeUsage: boolean): SseEvent[] {
  const id = `chatcmpl-${crypto.randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const events: SseEvent[] = [{ data: chunk({ role: "assistant", content: "", refusal: null }) }];
  if (turn.thinking) {
    for (const p of pieces(turn.thinking)) events.push({ data: chunk({ reasoning_content: p }), content: true });
  }
  if (turn.text || turn.hugeText) {
    for (const p of textPieces(turn)) events.push({ data: chunk({ content: p }), content: true });
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    events.push({
      data: chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
      content: true,
    });
    for (const part of halves(call.arguments)) {
      events.push({ data: chunk({ tool_calls: [{ index, function: { arguments: part } }] }), content: true });
    }
  });
  if (turn.truncate) return events;
  events.push({ data: chunk({}, finishReason(turn)) });
  if (includeUsage) {
    events.push({
      data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usageBody(turn) }),
    });
  }
  events.push({ data: "[DONE]" });
  return events;
}

function completion(turn: ScriptedTurn, model: string) {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: turn.text ?? null,
    refusal: null,
  };
  if (turn.thinking) message.reasoning_content = turn.thinking;
  if (turn.toolCalls?.length) {
    message.tool_calls = turn.toolCalls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(turn) }],
    usage: usageBody(turn),
  };
}
