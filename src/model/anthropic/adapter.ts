// Adapter for the Anthropic Messages API (and proxies that speak it).
import Anthropic from "@anthropic-ai/sdk";
import type { Adapter } from "../adapter.ts";
import { SDK_TIMEOUT_MS } from "../adapter.ts";
import { fromMessage, AnthropicStreamState } from "./response.ts";
import { toMessagesRequest } from "./request.ts";
import { anthropicBaseUrl } from "../../base/base-url.ts";
import { ProviderError } from "../errors.ts";
import { unfinishedStream } from "../stream-end.ts";
import { boundedFetch } from "../bounded-lines.ts";
import { ErrorBodies, type ErrorContext, toProviderError } from "../sdk-errors.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";

export function createAnthropicAdapter(p: ProviderSettings): Adapter {
  const baseUrl = anthropicBaseUrl(p);
  const bodies = new ErrorBodies();
  const client = new Anthropic({
    // Always explicit, so the SDK never falls back to ANTHROPIC_API_KEY or a
    // credentials file. A keyless proxy gets no auth header at all.
    apiKey: p.apiKey ?? "",
    ...(p.apiKey ? {} : { defaultHeaders: { "x-api-key": null, authorization: null } }),
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    fetch: boundedFetch(p, baseUrl, bodies),
  });
  const ctx: ErrorContext = {
    baseUrl,
    secrets: [p.apiKey],
    bodies,
    classes: {
      APIError: Anthropic.APIError,
      APIConnectionError: Anthropic.APIConnectionError,
      APIConnectionTimeoutError: Anthropic.APIConnectionTimeoutError,
      APIUserAbortError: Anthropic.APIUserAbortError,
    },
  };

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      const message = await client.messages.create(
        { ...toMessagesRequest(request), stream: false },
        { signal: request.signal },
      );
      return fromMessage(message);
    } catch (err) {
      throw toProviderError(err, ctx);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const state = new AnthropicStreamState();
    let count = 0;
    try {
      const events = await client.messages.create(
        { ...toMessagesRequest(request), stream: true },
        { signal: request.signal },
      );
      for await (const event of events) {
        count++;
        yield* state.push(event);
      }
    } catch (err) {
      throw toProviderError(err, ctx);
    }
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // Anthropic always closes a message with message_stop; without it the answer is cut short.
    if (!state.stopped) throw unfinishedStream(baseUrl, "message_stop", count);
  }

  return { baseUrl, complete, stream };
}
