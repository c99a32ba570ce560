// Adapter for Google Gemini through `@google/genai` (the Gemini Developer
// API: an API key, streamGenerateContent over SSE and generateContent).
import { ApiError, GoogleGenAI } from "@google/genai";
import type { Adapter } from "../adapter.ts";
import { geminiEndpoint } from "../../base/base-url.ts";
import { ProviderError, httpError } from "../errors.ts";
import { GeminiStreamState, fromGenerateContent } from "./response.ts";
import { toGeminiRequest } from "./request.ts";
import { lowLevelError, redacted } from "../failures.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";

export function createGeminiAdapter(p: ProviderSettings): Adapter {
  const { baseUrl, apiVersion } = geminiEndpoint(p);
  // No SDK retries (retry.ts does them) and no SDK timeout (retry.ts bounds each attempt).
  const client = new GoogleGenAI({ apiKey: p.apiKey ?? "", httpOptions: { baseUrl, apiVersion } });
  const secrets = [p.apiKey];
  const fail = (err: unknown, request: ModelRequest): ProviderError => redacted(toProviderError(err, baseUrl, request.signal), secrets, err);

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      return fromGenerateContent(await client.models.generateContent(toGeminiRequest(request)));
    } catch (err) {
      throw fail(err, request);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const state = new GeminiStreamState();
    try {
      const chunks = await client.models.generateContentStream(toGeminiRequest(request));
      for await (const chunk of chunks) yield* state.push(chunk);
    } catch (err) {
      throw fail(err, request);
    }
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // Gemini's last chunk carries the finish reason; a stream that ends without one was cut short.
    if (!state.finished) {
      throw new ProviderError(`provider error: stream from ${baseUrl} ended before the answer was complete`, {
        kind: "connection",
      });
    }
  }

  return { baseUrl, complete, stream };
}

function toProviderError(err: unknown, baseUrl: string, signal: AbortSignal | undefined): ProviderError {
  if (err instanceof ApiError) {
    // The SDK puts the error body (JSON) in the message, after a prefix for errors inside a stream.
    const body = err.message.slice(Math.max(0, err.message.indexOf("{")));
    return httpError(err.status, body, err);
  }
  return lowLevelError(err, baseUrl, signal);
}
