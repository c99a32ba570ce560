// The events of a streamed Messages body, read as the Anthropic SDK's
// Stream.fromSSEResponse reads them (`ping` and messages without an event
// name are skipped, an `error` event fails the answer, an aborted read ends
// quietly), through the lean decoder of ../sse.ts (issue 23). An error event
// is thrown as the ProviderError the SDK's error became (failures.ts).
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { sseMessages } from "../sse.ts";
import type { BodyLimit } from "../body-limits.ts";
import { ProviderError } from "../errors.ts";
import { isAbortError, streamErrorEvent } from "../failures.ts";

export async function* messageEvents(response: Response, limit?: BodyLimit): AsyncGenerator<RawMessageStreamEvent> {
  if (!response.body) throw new ProviderError("provider error: the answer has no body", { kind: "other" });
  try {
    for await (const sse of sseMessages(response.body, limit)) {
      if (sse.event === "ping" || sse.event === null) continue;
      if (sse.event === "error") throw streamErrorEvent(safeJson(sse.data) ?? sse.data);
      if (!sse.data) continue;
      yield JSON.parse(sse.data) as RawMessageStreamEvent;
    }
  } catch (err) {
    if (isAbortError(err)) return;
    throw err;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
