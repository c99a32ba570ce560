// The chunks of a streamGenerateContent (`alt=sse`) body, read as the
// `@google/genai` SDK read them: each event's `data` is one
// GenerateContentResponse; an event that carries an `error` with an HTTP code
// fails the answer with that status, as the SDK's ApiError did; an event with
// an `event:` name is skipped (the SDK read only events that start with
// `data:`). Decoded by the lean decoder of ../sse.ts (issue 23).
import { sseMessages } from "../sse.ts";
import { wholeBodyText, type BodyLimit } from "../body-limits.ts";
import { ProviderError, httpError } from "../errors.ts";
import type { GenerateContentResponse } from "./wire.ts";

export async function* geminiChunks(response: Response, limit: BodyLimit): AsyncGenerator<GenerateContentResponse> {
  if (!response.body) throw new ProviderError("provider error: the answer has no body", { kind: "other" });
  // An error answered as plain JSON with status 200 (a gateway's), which the SDK also caught.
  if (response.headers.get("content-type")?.includes("application/json")) {
    const text = await wholeBodyText(response, limit);
    throwIfError(safeJson(text), text);
    return;
  }
  for await (const sse of sseMessages(response.body, limit)) {
    if (sse.event !== null) continue;
    const chunk = JSON.parse(sse.data) as GenerateContentResponse;
    throwIfError(chunk, sse.data);
    yield chunk;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A chunk that is an error (`{"error": {"code": 429, …}}`) fails as that HTTP status. */
function throwIfError(json: unknown, text: string): void {
  if (typeof json !== "object" || json === null || !("error" in json)) return;
  const error = (json as { error: unknown }).error;
  if (typeof error !== "object" || error === null) return;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number" && code >= 400 && code < 600) throw httpError(code, text);
}
