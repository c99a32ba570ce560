// A fetch for the SDKs whose successful bodies fail once a single line grows
// past a limit. The SDKs' event-stream decoders buffer a line whole before
// they parse it, so without this one endless `data:` line (or a huge
// non-streamed body) would be read into memory entirely before the answer cap
// (stream-limits.ts) ever sees a chunk. Any adapter whose SDK takes a fetch
// can use it.
import type { ErrorBodies, Fetch } from "./sdk-errors.ts";
import { maxAnswerBytesOf, type ProviderSettings } from "../base/provider-settings.ts";
import { answerTooLarge } from "./stream-limits.ts";

const NEWLINE = 10;

export function boundedLines(fetchFn: Fetch, maxLineBytes: number, tooLong: () => Error): Fetch {
  return async (input, init) => {
    const res = await fetchFn(input, init);
    if (!res.ok || !res.body || maxLineBytes <= 0) return res;
    let line = 0; // bytes since the last newline
    // A pulled stream over the body's reader: one read per chunk, none of a pipe's machinery.
    const reader = res.body.getReader();
    const checked = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value: chunk } = await reader.read();
          if (done) return controller.close();
          const first = chunk.indexOf(NEWLINE);
          if (first === -1) line += chunk.length;
          else if (line + first > maxLineBytes) line += first;
          else line = chunk.length - chunk.lastIndexOf(NEWLINE) - 1;
          if (line <= maxLineBytes) return controller.enqueue(chunk);
          const error = tooLong();
          controller.error(error);
          reader.cancel(error).catch(() => {});
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(checked, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * The longest line allowed: twice the cap plus framing. A streamed event
 * carries one small delta, so only a body holding a whole answer (a non-
 * streamed completion, or a hostile stream) comes near it; such an answer
 * heavily JSON-escaped past twice its size is refused although within the cap.
 */
export function maxLineFor(maxAnswerBytes: number): number {
  return maxAnswerBytes > 0 ? 2 * maxAnswerBytes + 64 * 1024 : 0;
}

/** The fetch an adapter gives its SDK: error bodies kept, lines bounded by the provider's answer cap. */
export function boundedFetch(p: ProviderSettings, baseUrl: string, bodies: ErrorBodies): Fetch {
  const cap = maxAnswerBytesOf(p);
  return boundedLines(bodies.fetch, maxLineFor(cap), () => answerTooLarge(baseUrl, cap));
}
