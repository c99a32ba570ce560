// What an adapter reports when a streamed answer ends without the provider's
// end marker (OpenAI's `finish_reason`, Anthropic's `message_stop`): the answer
// is cut short, or the 200 body was never an event stream. Either is an error
// of the run, never a complete (or empty) answer. Shared by every adapter.
import { ProviderError } from "./errors.ts";

/**
 * The error for a stream that ended without `marker`. `events` is how many
 * stream events the body held: none means the body was not an event stream.
 */
export function unfinishedStream(baseUrl: string, marker: string, events: number): ProviderError {
  if (events === 0) {
    return new ProviderError(`provider error: ${baseUrl} answered 200 with a body that is not an event stream`, {
      kind: "stream",
    });
  }
  return new ProviderError(`provider error: stream from ${baseUrl} ended without ${marker}: the answer is incomplete`, {
    kind: "stream",
  });
}
