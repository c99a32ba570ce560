// The Gemini adapter as it was before it spoke HTTP itself: the request handed
// to `@google/genai` as its parameters, and its errors mapped onto
// ProviderErrors. The wire test
// (test/model/gemini-wire.test.ts) compares the adapter with this reference.
import { ApiError, type Content, type GenerateContentConfig } from "@google/genai";
import { httpError, type ProviderError } from "../../src/model/errors.ts";
import { lowLevelError, redacted } from "../../src/model/failures.ts";
import { toGeminiRequest } from "../../src/model/gemini/request.ts";
import type { ModelRequest } from "../../src/model/types.ts";

export interface SdkParams {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

/**
 * The SDK's parameters for a request, as the adapter gave them: the contents,
 * and the body's other fields as the SDK's config (the system instruction as
 * its text). The wire test compares what the SDK made of them with the
 * adapter's own body.
 */
export function sdkParams(request: ModelRequest): SdkParams {
  const body = toGeminiRequest(request);
  const config: GenerateContentConfig = {};
  if (body.systemInstruction) config.systemInstruction = body.systemInstruction.parts[0]!.text;
  if (body.tools) config.tools = body.tools;
  Object.assign(config, body.generationConfig);
  if (request.signal) config.abortSignal = request.signal;
  return { model: request.model, contents: body.contents as Content[], config };
}

/** The old adapter's mapping: the SDK puts the error body (JSON) in an ApiError's message, after a prefix for errors inside a stream. */
export function sdkError(err: unknown, baseUrl: string, secrets: readonly (string | undefined)[], signal?: AbortSignal): ProviderError {
  if (err instanceof ApiError) return redacted(httpError(err.status, err.message.slice(Math.max(0, err.message.indexOf("{"))), err), secrets, err);
  return redacted(lowLevelError(err, baseUrl, signal), secrets, err);
}
