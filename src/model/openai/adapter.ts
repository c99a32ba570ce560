// Adapter for OpenAI Chat Completions and every API that copies it: OpenAI,
// Azure OpenAI, Ollama, llama.cpp, vLLM, DeepSeek, LM Studio (by base_url).
// It speaks HTTP with fetch: the URL, headers and body are those the `openai`
// SDK sent, and each failure becomes the error the SDK's became
// (test/model/openai-wire.test.ts holds both to the SDK), at a fraction of the
// SDK's cost per request (docs/benchmarks.md).
import type { Adapter } from "../adapter.ts";
import { PROVIDER_KIND_TABLE } from "../../base/provider-kinds.ts";
import { ProviderError } from "../errors.ts";
import { fromChatChunk, fromChatCompletion } from "./response.ts";
import { chatRequestJson } from "./request.ts";
import { unfinishedStream } from "../stream-end.ts";
import { bodyLimitOf, wholeBodyJson } from "../body-limits.ts";
import { chatChunks } from "./stream.ts";
import { post } from "../http.ts";
import { lowLevelError, redacted } from "../failures.ts";
import { chatCompletionsUrl } from "./url.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";
import type { ChatCompletion } from "openai/resources/chat/completions";

/** Used when an Azure provider names no `api_version`. */
export const DEFAULT_AZURE_API_VERSION = "2024-10-21";

/**
 * Local servers (Ollama, llama.cpp) ignore the key; the SDK insisted on one, so
 * a placeholder goes where none is set. Never OPENAI_API_KEY from the
 * environment: it must not reach a server it was not meant for.
 */
function apiKeyOf(p: ProviderSettings): string {
  if (p.apiKey) return p.apiKey;
  return p.kind === "ollama" ? "ollama" : "no-key";
}

/**
 * The answer's limit as this endpoint takes it (set by a budget, docs/usage.md):
 * OpenAI and Azure want `max_completion_tokens` (their reasoning models refuse
 * `max_tokens`); the servers that copy the API know `max_tokens`.
 */
function outputLimitField(p: ProviderSettings, baseUrl: string): "max_completion_tokens" | "max_tokens" {
  return p.kind === "azure" || new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
}

const STREAM_EXTRA = { stream: true, stream_options: { include_usage: true } };

export function createOpenAIAdapter(p: ProviderSettings): Adapter {
  const baseUrl = PROVIDER_KIND_TABLE[p.kind].endpoint(p);
  const limitField = outputLimitField(p, baseUrl);
  const apiVersion = p.kind === "azure" ? p.apiVersion || DEFAULT_AZURE_API_VERSION : undefined;
  const auth: Record<string, string> = p.kind === "azure" ? { "api-key": apiKeyOf(p) } : { authorization: `Bearer ${apiKeyOf(p)}` };
  const headers = { accept: "application/json", "content-type": "application/json", ...auth };
  const bodyLimit = bodyLimitOf(p, baseUrl);
  const secrets = [p.apiKey];
  // Only Azure's URL names the model (its deployment).
  const sharedUrl = apiVersion === undefined ? chatCompletionsUrl(baseUrl, "") : undefined;

  const send = (request: ModelRequest, extra: Record<string, unknown>) =>
    post({
      url: sharedUrl ?? chatCompletionsUrl(baseUrl, request.model, apiVersion),
      headers,
      // The answer's limit goes before the rest, where the SDK's callers put it.
      body: chatRequestJson(request, request.maxTokens === undefined ? extra : { [limitField]: request.maxTokens, ...extra }),
      signal: request.signal,
      baseUrl,
    });
  const failure = (err: unknown, request: ModelRequest) => redacted(lowLevelError(err, baseUrl, request.signal), secrets);

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      const response = await send(request, { stream: false });
      return fromChatCompletion(await wholeBodyJson<ChatCompletion>(response, bodyLimit));
    } catch (err) {
      throw failure(err, request);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    let events = 0;
    let finished = false;
    try {
      const response = await send(request, STREAM_EXTRA);
      for await (const chunk of chatChunks(response, bodyLimit)) {
        events++;
        for (const piece of fromChatChunk(chunk)) {
          if (piece.type === "finish") finished = true;
          yield piece;
        }
      }
    } catch (err) {
      throw failure(err, request);
    }
    // A read the caller aborted ends quietly (stream.ts); it must not pass for a complete answer.
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // So does the end of the body, with or without `[DONE]`.
    if (!finished) throw unfinishedStream(baseUrl, "a finish_reason", events);
  }

  return { baseUrl, complete, stream };
}
