// The messages of an event-stream body, decoded by the rules of the OpenAI
// SDK's decoder (lines end at \n, \r\n or \r; a line starting with `:` is a
// comment; `event:` and `data:` fields, one space after the colon dropped,
// data lines joined with \n; a blank line ends a message, and one left
// unfinished at the end of the body is dropped). The SDK copies each event's
// bytes four times over before it parses them (measured: about +30 MiB of RSS
// for a 12 MiB answer, docs/benchmarks.md#memory);
// here a line is copied only when it spans two reads, and only a field's
// value is decoded.

import type { BodyLimit } from "./body-limits.ts";

export interface SseMessage {
  /** The `event:` field; null when the message had none. */
  event: string | null;
  data: string;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/** A leading byte-order mark, which the SDK's decoder drops at the start of each line. */
function bomLength(line: Uint8Array): number {
  return line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? 3 : 0;
}

/** `limit` bounds each line (body-limits.ts). */
export async function* sseMessages(body: ReadableStream<Uint8Array>, limit?: BodyLimit): AsyncGenerator<SseMessage> {
  const maxLine = limit && limit.maxBytes > 0 ? limit.maxBytes : Infinity;
  const tooLong = limit?.tooLarge ?? (() => new Error("line too long"));
  // ignoreBOM: a mark inside a line is kept, as the SDK keeps it (it decodes whole lines).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let event: string | null = null;
  let data: string[] = [];
  /** The bytes of a line not finished by the previous read. */
  let carry: Uint8Array | undefined;
  /** The previous read ended with \r: a \n first in the next one ends no second line. */
  let afterCR = false;

  /** Folds one line in; a finished message when it was the blank line ending one. */
  const line = (bytes: Uint8Array): SseMessage | undefined => {
    const at = bomLength(bytes);
    if (bytes.length === at) {
      if (!event && data.length === 0) return undefined;
      const message = { event, data: data.length === 1 ? data[0] : data.join("\n") };
      event = null;
      data = [];
      return message;
    }
    if (bytes[at] === COLON) return undefined;
    let colon = bytes.indexOf(COLON, at);
    if (colon === -1) colon = bytes.length;
    const field = decoder.decode(bytes.subarray(at, colon));
    if (field !== "event" && field !== "data") return undefined;
    const start = colon + 1 < bytes.length && bytes[colon + 1] === SPACE ? colon + 2 : colon + 1;
    const value = start < bytes.length ? decoder.decode(bytes.subarray(start)) : "";
    if (field === "event") event = value;
    else data.push(value);
    return undefined;
  };

  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      let start = afterCR && chunk[0] === LF ? 1 : 0;
      afterCR = false;
      for (let i = start; i < chunk.length; i++) {
        const b = chunk[i];
        if (b !== LF && b !== CR) {
          // Skip to the next line end: \n by indexOf, a lone \r is rare.
          const lf = chunk.indexOf(LF, i);
          const end = lf === -1 ? chunk.length : lf;
          const cr = chunk.subarray(i, end).indexOf(CR);
          i = (cr === -1 ? end : i + cr) - 1;
          continue;
        }
        const piece = chunk.subarray(start, i);
        const whole = carry ? joined(carry, piece) : piece;
        carry = undefined;
        if (whole.length > maxLine) throw tooLong();
        if (b === CR) {
          if (i + 1 < chunk.length) {
            if (chunk[i + 1] === LF) i++;
          } else afterCR = true;
        }
        start = i + 1;
        const message = line(whole);
        if (message) yield message;
      }
      // The rest is copied, not kept as a view: a view would hold the whole read.
      if (start < chunk.length) carry = carry ? joined(carry, chunk.subarray(start)) : chunk.slice(start);
      if (carry && carry.length > maxLine) throw tooLong();
    }
  } finally {
    // Left early (the caller stopped, or a read failed): the rest of the body is not wanted.
    if (finished) reader.releaseLock();
    else reader.cancel().catch(() => {});
  }
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
