// How much of a provider's answer body the daemon reads, so that no answer,
// however hostile, fills its memory: a streamed body line by line (a line is
// bounded inside the event decoder, sse.ts), a whole (non-streamed) answer in
// all, an error body up to what its message needs.
import { maxAnswerBytesOf, type ProviderSettings } from "../base/provider-settings.ts";
import { answerTooLarge } from "./stream-limits.ts";
import { ProviderError, errorBodyMessage } from "./errors.ts";

/** The most a body may send (a line of a stream, or a whole answer), and the error it fails with past that. */
export interface BodyLimit {
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * The limit: twice the cap plus framing. A streamed event carries one small
 * delta, so only a body holding a whole answer (a non-streamed completion, or
 * a hostile stream) comes near it; such an answer heavily JSON-escaped past
 * twice its size is refused although within the cap. No cap, no limit (0).
 */
export function bodyLimitOf(p: ProviderSettings, baseUrl: string): BodyLimit {
  const cap = maxAnswerBytesOf(p);
  return { maxBytes: cap > 0 ? 2 * cap + 64 * 1024 : 0, tooLarge: () => answerTooLarge(baseUrl, cap) };
}

/** A whole answer's text; past the limit the read stops and fails. */
export async function wholeBodyText(response: Response, limit: BodyLimit): Promise<string> {
  const max = limit.maxBytes > 0 ? limit.maxBytes : Infinity;
  const { parts, size } = await readUpTo(response, max + 1);
  if (size > max) throw limit.tooLarge();
  return new Blob(parts).text();
}

/**
 * A whole answer, parsed. The SDKs handed a body that is not JSON on as a
 * string, which failed later where it was read; here it is said at once.
 */
export async function wholeBodyJson<T>(response: Response, limit: BodyLimit): Promise<T> {
  const text = await wholeBodyText(response, limit);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(`provider error: the answer is not JSON: ${errorBodyMessage(text)}`, { kind: "other" });
  }
}

/** An error body is read up to this many bytes: more than any provider's error needs. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The text of an error response's body, its first MAX_ERROR_BODY_BYTES; "" when it cannot be read. */
export async function errorBodyText(response: Response): Promise<string> {
  try {
    const { parts } = await readUpTo(response, MAX_ERROR_BODY_BYTES);
    return await new Blob(parts).slice(0, MAX_ERROR_BODY_BYTES).text();
  } catch {
    return "";
  }
}

/** The body's reads until `max` bytes have come (or it ended); the rest is cancelled. */
async function readUpTo(response: Response, max: number): Promise<{ parts: Uint8Array[]; size: number }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return { parts, size };
  const reader = response.body.getReader();
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return { parts, size };
}
