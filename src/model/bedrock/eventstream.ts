// The AWS event stream (application/vnd.amazon.eventstream) that
// ConverseStream answers with, decoded without the SDK: each message is a
// prelude (total length, headers length, CRC32 of both), headers, a payload
// and a CRC32 of all before it
// (https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html#streaming-event-stream).
// Bytes are copied only when a message spans two reads; a message longer
// than the body limit fails the answer before it is gathered
// (`max_answer_bytes`, docs/config.md#providername).
import type { BodyLimit } from "../body-limits.ts";
import { ProviderError } from "../errors.ts";

export interface EventMessage {
  headers: Record<string, string>;
  payload: Uint8Array;
}

const PRELUDE = 12;
/** The smallest message: prelude and message CRC. */
const MIN_MESSAGE = PRELUDE + 4;

const malformed = (why: string) => new ProviderError(`provider error: malformed event stream (${why})`, { kind: "stream" });

export async function* eventMessages(body: ReadableStream<Uint8Array>, limit: BodyLimit): AsyncGenerator<EventMessage> {
  const max = limit.maxBytes > 0 ? limit.maxBytes : Infinity;
  const reader = body.getReader();
  /** Bytes read and not yet decoded. */
  let pending = new Uint8Array(0);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        // A message cut off by the end of the body is not an event; the adapter says the answer is incomplete.
        return;
      }
      const bytes = pending.length === 0 ? value : joined(pending, value);
      let at = 0;
      while (bytes.length - at >= PRELUDE) {
        const view = new DataView(bytes.buffer, bytes.byteOffset + at, bytes.length - at);
        const total = view.getUint32(0);
        if (total < MIN_MESSAGE) throw malformed(`a message of ${total} bytes`);
        if (total > max) throw limit.tooLarge();
        if (Bun.hash.crc32(bytes.subarray(at, at + 8)) !== view.getUint32(8)) throw malformed("prelude checksum");
        if (bytes.length - at < total) break;
        const message = bytes.subarray(at, at + total);
        if (Bun.hash.crc32(message.subarray(0, total - 4)) !== view.getUint32(total - 4)) throw malformed("message checksum");
        const headersLength = view.getUint32(4);
        if (PRELUDE + headersLength > total - 4) throw malformed("headers longer than the message");
        yield { headers: decodeHeaders(message.subarray(PRELUDE, PRELUDE + headersLength)), payload: message.subarray(PRELUDE + headersLength, total - 4) };
        at += total;
      }
      // The rest is copied, not kept as a view: a view would hold the whole read.
      pending = at === bytes.length ? new Uint8Array(0) : bytes.slice(at);
    }
  } finally {
    if (finished) reader.releaseLock();
    else reader.cancel().catch(() => {});
  }
}

const decoder = new TextDecoder();

/** A message's headers: the string ones by name; values of other types are skipped (none of Converse's matter). */
function decodeHeaders(bytes: Uint8Array): Record<string, string> {
  const headers: Record<string, string> = {};
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) throw malformed("a header runs past its end");
  };
  while (at < bytes.length) {
    need(1);
    const nameLength = bytes[at]!;
    need(1 + nameLength + 1);
    const name = decoder.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 1 + nameLength;
    const type = bytes[at++]!;
    const fixed = FIXED_SIZES[type];
    if (fixed !== undefined) {
      need(fixed);
      at += fixed;
      continue;
    }
    if (type !== BYTE_ARRAY && type !== STRING) throw malformed(`header type ${type}`);
    need(2);
    const length = view.getUint16(at);
    need(2 + length);
    if (type === STRING) headers[name] = decoder.decode(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return headers;
}

const BYTE_ARRAY = 6;
const STRING = 7;
/** Value sizes of the fixed-size header types: true, false, byte, short, integer, long, timestamp, uuid. */
const FIXED_SIZES: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
