// A fetch for the SDKs whose successful bodies fail once a single line grows
// past a limit. The SDKs' event-stream decoders buffer a line whole before
// they parse it, so without this one endless `data:` line (or a huge
// non-streamed body) would be read into memory entirely before the answer cap
// (stream-limits.ts) ever sees a chunk. Any adapter whose SDK takes a fetch
// can use it. It also hands the SDK the body one event at a time (see
// eachEvent), which keeps the SDKs' decoding linear in the body's size.
import type { ErrorBodies, Fetch } from "./sdk-errors.ts";
import type { LineLimit } from "./sse.ts";
import { maxAnswerBytesOf, type ProviderSettings } from "../base/provider-settings.ts";
import { answerTooLarge } from "./stream-limits.ts";

const NEWLINE = 10;

/** `base` whose successful bodies fail with `limit.tooLong()` once a line passes `limit.maxLineBytes`. */
export function boundedLines({ maxLineBytes, tooLong }: LineLimit, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const res = await base(input, init);
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
          if (line <= maxLineBytes) {
            for (const piece of eachEvent(chunk)) controller.enqueue(piece);
            return;
          }
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

const CR = 13;

/**
 * `chunk` cut after each blank line (the end of an event), as views of it, not
 * copies. The SDKs' event-stream decoders append every chunk they get to what
 * is left of the previous one and copy the rest again after each event they
 * find: a read holding many events (Bun reads 256 KiB at a time) cost them a
 * copy of the read per event. One event per chunk leaves them two copies of it.
 */
export function* eachEvent(chunk: Uint8Array): Generator<Uint8Array> {
  let start = 0;
  for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) {
    const end = chunk[i + 1] === NEWLINE ? i + 2 : chunk[i + 1] === CR && chunk[i + 2] === NEWLINE ? i + 3 : -1;
    if (end === -1) continue;
    yield chunk.subarray(start, end);
    start = end;
    i = end - 1;
  }
  if (start < chunk.length) yield start === 0 ? chunk : chunk.subarray(start);
}

/**
 * The longest line allowed: twice the cap plus framing. A streamed event
 * carries one small delta, so only a body holding a whole answer (a non-
 * streamed completion, or a hostile stream) comes near it; such an answer
 * heavily JSON-escaped past twice its size is refused although within the cap.
 */
function maxLineFor(maxAnswerBytes: number): number {
  return maxAnswerBytes > 0 ? 2 * maxAnswerBytes + 64 * 1024 : 0;
}

/** The line limit of a provider's bodies, from its answer cap. */
export function lineLimitOf(p: ProviderSettings, baseUrl: string): LineLimit {
  const cap = maxAnswerBytesOf(p);
  return { maxLineBytes: maxLineFor(cap), tooLong: () => answerTooLarge(baseUrl, cap) };
}

/** The fetch an adapter gives its SDK: error bodies kept, lines bounded by the provider's answer cap. */
export function boundedFetch(p: ProviderSettings, baseUrl: string, bodies: ErrorBodies): Fetch {
  return boundedLines(lineLimitOf(p, baseUrl), bodies.fetch);
}
