// Adapter for Google Gemini (the Gemini Developer API: an API key,
// streamGenerateContent over SSE and generateContent). It speaks HTTP with
// fetch: the URL, headers and body are those the `@google/genai` SDK sent, a
// long answer is resumed at its checkpoints as the SDK resumed it
// (continuation.ts), and each failure becomes the error the SDK's became
// (test/model/gemini-wire.test.ts holds all three to the SDK, and names
// where the adapter answers differently on purpose).
import type { Adapter } from "../adapter.ts";
import { geminiEndpoint } from "../../base/base-url.ts";
import { ProviderError } from "../errors.ts";
import { unfinishedStream } from "../stream-end.ts";
import { bodyLimitOf, wholeBodyJson } from "../body-limits.ts";
import { post } from "../http.ts";
import { lowLevelError, redacted } from "../failures.ts";
import { GeminiStreamState, fromGenerateContent } from "./response.ts";
import { geminiRequestJson, toGeminiRequest } from "./request.ts";
import { geminiChunks } from "./stream.ts";
import { continuedAnswer, continuedStream } from "./continuation.ts";
import type { GenerateContentResponse } from "./wire.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";

export function createGeminiAdapter(p: ProviderSettings): Adapter {
  const { baseUrl, apiVersion } = geminiEndpoint(p);
  const apiUrl = `${baseUrl}/${apiVersion}/`;
  // Only the configured key, never GEMINI_API_KEY from the daemon's environment; a keyless proxy gets no key header.
  const headers: Record<string, string> = { "content-type": "application/json", ...(p.apiKey ? { "x-goog-api-key": p.apiKey } : {}) };
  const bodyLimit = bodyLimitOf(p, baseUrl);
  const failure = (err: unknown, request: ModelRequest) => redacted(lowLevelError(err, baseUrl, request.signal), [p.apiKey]);

  const send = (request: ModelRequest, method: string, body: string) =>
    post({ url: `${apiUrl}${modelPath(request.model)}:${method}`, headers, body, signal: request.signal, baseUrl });

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    const body = toGeminiRequest(request);
    try {
      const answer = await continuedAnswer(async (token) => {
        const response = await send(request, "generateContent", geminiRequestJson(body, token));
        return wholeBodyJson<GenerateContentResponse>(response, bodyLimit);
      });
      return fromGenerateContent(answer);
    } catch (err) {
      throw failure(err, request);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const body = toGeminiRequest(request);
    const state = new GeminiStreamState();
    let chunks = 0;
    async function* hop(token: string | undefined): AsyncGenerator<GenerateContentResponse> {
      yield* geminiChunks(await send(request, "streamGenerateContent?alt=sse", geminiRequestJson(body, token)), bodyLimit);
    }
    try {
      for await (const chunk of continuedStream(hop, request.signal)) {
        chunks++;
        yield* state.push(chunk);
      }
    } catch (err) {
      throw failure(err, request);
    }
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // Gemini's last chunk carries the finish reason; a stream that ends without one was cut short.
    if (!state.finished) throw unfinishedStream(baseUrl, "a finishReason", chunks);
  }

  return { baseUrl, complete, stream };
}

/**
 * The model's resource path, as the SDK made it: `models/<name>`, or the name
 * as given when it is one already (`models/…`, `tunedModels/…`). A name that
 * could step out of that path (`..`, a query, a fragment) is refused.
 */
function modelPath(model: string): string {
  if (!model || /\.\.|[?&#]/.test(model)) throw new ProviderError(`provider error: invalid model name '${model}'`, { kind: "other" });
  return model.startsWith("models/") || model.startsWith("tunedModels/") ? model : `models/${model}`;
}
