// ConverseStream's events, read from the AWS event stream as the AWS SDK read
// them: an `event` message is `{ [its :event-type]: its JSON payload }`; an
// `exception` message (throttling, a model error mid-answer) fails the answer
// with the HTTP status that exception stands for; an `error` message fails it
// with its `:error-message`. Unknown events are passed on and ignored.
import type { BodyLimit } from "../body-limits.ts";
import { ProviderError, httpError } from "../errors.ts";
import { eventMessages } from "./eventstream.ts";
import { exceptionStatus } from "./exceptions.ts";
import type { ConverseStreamOutput } from "./wire.ts";

const decoder = new TextDecoder();

export async function* converseEvents(response: Response, limit: BodyLimit): AsyncGenerator<ConverseStreamOutput> {
  if (!response.body) throw new ProviderError("provider error: the answer has no body", { kind: "other" });
  for await (const message of eventMessages(response.body, limit)) {
    const kind = message.headers[":message-type"];
    if (kind === "error") {
      throw new ProviderError(`provider error: ${message.headers[":error-message"] || "UnknownError"}`, { kind: "other" });
    }
    const payload = JSON.parse(decoder.decode(message.payload)) as Record<string, unknown>;
    if (kind === "exception") {
      const type = message.headers[":exception-type"] ?? "";
      const name = type.charAt(0).toUpperCase() + type.slice(1);
      // Without a message the SDK's in-stream exception said "Unknown".
      const text = typeof payload.message === "string" && payload.message ? payload.message : "Unknown";
      throw httpError(exceptionStatus(name), JSON.stringify({ error: { message: text } }));
    }
    const event = message.headers[":event-type"];
    if (event) yield { [event]: payload } as ConverseStreamOutput;
  }
}
