// Adapter for OpenAI Chat Completions and every API that copies it: OpenAI,
// Azure OpenAI, Ollama, llama.cpp, vLLM, DeepSeek, LM Studio (by base_url).
import OpenAI, { AzureOpenAI } from "openai";
import type { Adapter } from "../adapter.ts";
import { SDK_TIMEOUT_MS } from "../adapter.ts";
import { PROVIDER_KIND_TABLE } from "../../base/provider-kinds.ts";
import { ProviderError } from "../errors.ts";
import { fromChatChunk, fromChatCompletion } from "./response.ts";
import { chatRequestJson, toChatRequest } from "./request.ts";
import { unfinishedStream } from "../stream-end.ts";
import { boundedFetch } from "../bounded-lines.ts";
import { chatChunks } from "./stream.ts";
import { ErrorBodies, type ErrorContext, toProviderError } from "../sdk-errors.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";

const JSON_CONTENT = { "content-type": "application/json" };

/** Used when an Azure provider names no `api_version`. */
export const DEFAULT_AZURE_API_VERSION = "2024-10-21";

/**
 * The SDK insists on a key; local servers (Ollama, llama.cpp) ignore it. An
 * explicit placeholder also stops the SDK from reading OPENAI_API_KEY from the
 * environment and sending it to a server it was not meant for.
 */
function apiKeyOf(p: ProviderSettings): string {
  if (p.apiKey) return p.apiKey;
  return p.kind === "ollama" ? "ollama" : "no-key";
}

function createClient(p: ProviderSettings, baseUrl: string, bodies: ErrorBodies): OpenAI {
  const common = {
    apiKey: apiKeyOf(p),
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    fetch: boundedFetch(p, baseUrl, bodies),
    organization: null,
    project: null,
  };
  if (p.kind === "azure") {
    // A base URL already under /openai is used as is; otherwise it is the resource endpoint.
    const target = /\/openai(\/|$)/.test(new URL(baseUrl).pathname) ? { baseURL: baseUrl } : { endpoint: baseUrl };
    return new AzureOpenAI({ ...common, ...target, apiVersion: p.apiVersion || DEFAULT_AZURE_API_VERSION });
  }
  return new OpenAI({ ...common, baseURL: baseUrl });
}

/**
 * The answer's limit as this endpoint takes it (set by a budget, docs/usage.md):
 * OpenAI and Azure want `max_completion_tokens` (their reasoning models refuse
 * `max_tokens`); the servers that copy the API know `max_tokens`.
 */
function outputLimitField(p: ProviderSettings, baseUrl: string): "max_completion_tokens" | "max_tokens" {
  return p.kind === "azure" || new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
}

export function createOpenAIAdapter(p: ProviderSettings): Adapter {
  const baseUrl = PROVIDER_KIND_TABLE[p.kind].endpoint(p);
  const limitField = outputLimitField(p, baseUrl);
  const limit = (request: ModelRequest): Record<string, number> =>
    request.maxTokens === undefined ? {} : { [limitField]: request.maxTokens };
  const bodies = new ErrorBodies();
  const client = createClient(p, baseUrl, bodies);
  const ctx: ErrorContext = {
    baseUrl,
    secrets: [p.apiKey],
    bodies,
    classes: {
      APIError: OpenAI.APIError,
      APIConnectionError: OpenAI.APIConnectionError,
      APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError,
      APIUserAbortError: OpenAI.APIUserAbortError,
    },
  };

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      const completion = await client.chat.completions.create(
        { ...toChatRequest(request), ...limit(request), stream: false },
        { signal: request.signal },
      );
      return fromChatCompletion(completion);
    } catch (err) {
      throw toProviderError(err, ctx);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    let events = 0;
    let finished = false;
    try {
      // The SDK sends the request and turns an error status into its error; the body is read here (sse.ts).
      const response = await client.chat.completions.create(streamBody(request), streamOptions(request)).asResponse();
      for await (const chunk of chatChunks(response)) {
        events++;
        for (const piece of fromChatChunk(chunk)) {
          if (piece.type === "finish") finished = true;
          yield piece;
        }
      }
    } catch (err) {
      throw toProviderError(err, ctx);
    }
    // The SDK ends an aborted stream quietly; the caller must not take it for a complete answer.
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // The SDK also ends quietly at the end of the body, with or without `[DONE]`.
    if (!finished) throw unfinishedStream(baseUrl, "a finish_reason", events);
  }

  // Azure's client reads the deployment from the body object: it gets the object.
  const serialized = p.kind !== "azure";
  const streamBody = (request: ModelRequest) =>
    serialized
      ? { model: request.model, messages: [], stream: true as const }
      : { ...toChatRequest(request), ...limit(request), stream: true as const, stream_options: { include_usage: true } };
  // The body the SDK sends, serialized by us (request.ts chatRequestJson): a string
  // body with its content type is passed through verbatim.
  const streamOptions = (request: ModelRequest) =>
    serialized
      ? {
          signal: request.signal,
          body: chatRequestJson(request, { ...limit(request), stream: true, stream_options: { include_usage: true } }),
          headers: JSON_CONTENT,
        }
      : { signal: request.signal };

  return { baseUrl, complete, stream };
}
