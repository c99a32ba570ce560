// A fake Gemini Developer API server (Bun.serve on loopback) speaking the real
// wire format: `models/<m>:streamGenerateContent?alt=sse` and
// `models/<m>:generateContent`, plus the model list, driven by ScriptedTurns.
import { DEFAULT_USAGE, FakeState, type FakeLLM, type ScriptedTurn, type SseEvent, json, pieces, sleep, fakeHandle } from "./fake-llm.ts";

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** The thought signature the fake attaches to the first function call of a step. */
export const FAKE_THOUGHT_SIGNATURE = "fake-thought-signature";

export interface FakeGeminiOptions {
  /** Model ids listed by `GET /v1beta/models`. */
  models?: string[];
}

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeLLM> {
  const state = new FakeState();
  const models = options.models ?? ["gemini-fake", "fake-model"];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      if (req.method === "GET" && path === "/v1beta/models") {
        return json({ models: models.map((m) => ({ name: `models/${m}`, supportedGenerationMethods: ["generateContent"] })) });
      }
      const route = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path);
      if (req.method !== "POST" || !route) return errorResponse(404, `no route for ${req.method} ${path}`);
      const streaming = route[2] === "streamGenerateContent";
      const { body } = await state.record(req, path);
      const turn = state.next({ stream: streaming, contents: body?.contents });
      if (turn.delayMs) await sleep(turn.delayMs);
      if (turn.error) return errorResponse(turn.error.status, turn.error.message);
      const model = decodeURIComponent(route[1] ?? "");
      if (streaming) {
        if (url.searchParams.get("alt") !== "sse") return errorResponse(400, "this fake streams only with alt=sse");
        return state.sse(streamEvents(turn, model), turn);
      }
      return json(response(turn, model, allParts(turn), true));
    },
  });
  return fakeHandle(server, state);
}

function errorResponse(status: number, message: string): Response {
  return json({ error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } }, status);
}

function usageMetadata(turn: ScriptedTurn) {
  const u = turn.usage ?? DEFAULT_USAGE;
  const thoughts = turn.thinking ? 3 : 0;
  return {
    promptTokenCount: u.prompt,
    candidatesTokenCount: u.completion,
    totalTokenCount: u.prompt + u.completion + thoughts,
    ...(turn.usage?.cacheHit !== undefined ? { cachedContentTokenCount: turn.usage.cacheHit } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

type Part = Record<string, unknown>;

/** Function calls as the public API sends them: whole, and without ids. */
function callParts(turn: ScriptedTurn): Part[] {
  return (turn.toolCalls ?? []).map((c, i) => ({
    functionCall: { name: c.name, args: JSON.parse(c.arguments) },
    ...(i === 0 ? { thoughtSignature: FAKE_THOUGHT_SIGNATURE } : {}),
  }));
}

function allParts(turn: ScriptedTurn): Part[] {
  const parts: Part[] = [];
  if (turn.thinking) parts.push({ text: turn.thinking, thought: true });
  if (turn.text) parts.push({ text: turn.text });
  return [...parts, ...callParts(turn)];
}

function response(turn: ScriptedTurn, model: string, parts: Part[], last: boolean) {
  return {
    candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
    ...(last ? { usageMetadata: usageMetadata(turn) } : {}),
    modelVersion: model,
    responseId: "fake-response",
  };
}

function streamEvents(turn: ScriptedTurn, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const part = (p: Part) => events.push({ data: JSON.stringify(response(turn, model, [p], false)), content: true });
  for (const t of pieces(turn.thinking ?? "").filter(Boolean)) part({ text: t, thought: true });
  for (const t of pieces(turn.text ?? "").filter(Boolean)) part({ text: t });
  for (const p of callParts(turn)) part(p);
  if (turn.streamError) {
    const { status, message } = turn.streamError;
    events.push({ data: JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } }) });
    return events;
  }
  events.push({ data: JSON.stringify(response(turn, model, [], true)) });
  return events;
}
