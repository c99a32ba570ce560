// The chunks of a streamed Chat Completions body, read as the OpenAI SDK's
// Stream.fromSSEResponse reads them (`[DONE]` ends the answer, anything after
// it is read and ignored; an `error` in a chunk fails the answer; an aborted
// read ends quietly), but through the lean decoder of ../sse.ts, which keeps a
// long answer from costing several copies of itself (issue 23). An error in a
// chunk is thrown as the ProviderError the SDK's error became (failures.ts).
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { sseMessages } from "../sse.ts";
import type { BodyLimit } from "../body-limits.ts";
import { ProviderError } from "../errors.ts";
import { isAbortError, streamErrorEvent } from "../failures.ts";

export async function* chatChunks(response: Response, limit?: BodyLimit): AsyncGenerator<ChatCompletionChunk> {
  if (!response.body) throw new ProviderError("provider error: the answer has no body", { kind: "other" });
  let done = false;
  try {
    for await (const sse of sseMessages(response.body, limit)) {
      if (done) continue;
      if (sse.data.startsWith("[DONE]")) {
        done = true;
        continue;
      }
      const data = JSON.parse(sse.data) as ChatCompletionChunk & { error?: unknown };
      // Assistants (`thread.*`) events carry no chat chunk: the SDK hands them on as such, and they add nothing.
      if (sse.event?.startsWith("thread.")) continue;
      if (data?.error) throw streamErrorEvent(data.error);
      yield data;
    }
  } catch (err) {
    if (isAbortError(err)) return;
    throw err;
  }
}
