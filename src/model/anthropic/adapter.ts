// Adapter for the Anthropic Messages API (and proxies that speak it). It
// speaks HTTP with fetch: the URL, headers and body are those the
// `@anthropic-ai/sdk` client sent, the event stream is read as the SDK's
// Stream read it, and each failure becomes the error the SDK's became
// (test/model/anthropic-wire.test.ts holds all three to the SDK).
import type { Adapter } from "../adapter.ts";
import { fromMessage, AnthropicStreamState } from "./response.ts";
import { toMessagesRequest } from "./request.ts";
import { messageEvents } from "./stream.ts";
import { anthropicBaseUrl } from "../../base/base-url.ts";
import { ProviderError } from "../errors.ts";
import { unfinishedStream } from "../stream-end.ts";
import { bodyLimitOf, wholeBodyJson } from "../body-limits.ts";
import { post } from "../http.ts";
import { lowLevelError, redacted } from "../failures.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";
import type { Message } from "@anthropic-ai/sdk/resources/messages";

/** The API version the SDK (1.12) sends with every request. */
export const ANTHROPIC_VERSION = "2026-10-21";

export function createAnthropicAdapter(p: ProviderSettings): Adapter {
  const baseUrl = anthropicBaseUrl(p);
  const url = `${baseUrl}/v1/messages`;
  // Only the configured key, never ANTHROPIC_API_KEY or a credentials file; a keyless proxy gets no auth header at all.
  const headers: Record<string, string> = {
    accept: "application/json",
    "anthropic-version": ANTHROPIC_VERSION,
    "content-type": "application/json",
    ...(p.apiKey ? { authorization: `Bearer ${p.apiKey}` } : {}),
  };
  const bodyLimit = bodyLimitOf(p, baseUrl);
  const send = (request: ModelRequest, stream: boolean) =>
    post({ url, headers, body: JSON.stringify({ ...toMessagesRequest(request), stream }), signal: request.signal, baseUrl });
  const failure = (err: unknown, request: ModelRequest) => redacted(lowLevelError(err, baseUrl, request.signal), [p.apiKey]);

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      const response = await send(request, false);
      return fromMessage(await wholeBodyJson<Message>(response, bodyLimit));
    } catch (err) {
      throw failure(err, request);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const state = new AnthropicStreamState();
    let count = 0;
    try {
      const response = await send(request, true);
      for await (const event of messageEvents(response, bodyLimit)) {
        count++;
        yield* state.push(event);
      }
    } catch (err) {
      throw failure(err, request);
    }
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // Anthropic always closes a message with message_stop; without it the answer is cut short.
    if (!state.stopped) throw unfinishedStream(baseUrl, "message_stop", count);
  }

  return { baseUrl, complete, stream };
}
