// A fetch whose successful bodies fail once a single line grows past a limit,
// for the whole (non-streamed) answers the adapters read as one JSON text:
// without it, one huge body would be read into memory entirely before the
// answer cap (stream-limits.ts) could say anything. Streamed bodies are
// bounded the same way inside their decoder (sse.ts).
import type { Fetch } from "./failures.ts";
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
function maxLineFor(maxAnswerBytes: number): number {
  return maxAnswerBytes > 0 ? 2 * maxAnswerBytes + 64 * 1024 : 0;
}

/** The line limit of a provider's bodies, from its answer cap. */
export function lineLimitOf(p: ProviderSettings, baseUrl: string): LineLimit {
  const cap = maxAnswerBytesOf(p);
  return { maxLineBytes: maxLineFor(cap), tooLong: () => answerTooLarge(baseUrl, cap) };
}
