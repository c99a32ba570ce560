// The two frames that carry a long answer's text, StreamEvent.chunk and
// StreamEvent.thinking inside a ServerMessage, encoded by hand into one
// buffer. protobuf-es encodes the text, then copies it once more for each
// message it is nested in (three): for a 64 KiB delta that is a quarter of a
// MiB left for the collector, which a long answer multiplies (issue 23).
// test/protocol/text-frames.test.ts compares the bytes with protobuf-es's.
import type { Reply } from "./codec.ts";

const LEN = 2;
/** ServerMessage.stream = 4. */
const SERVER_STREAM = 4;
/** StreamEvent.chunk = 2, StreamEvent.thinking = 3. */
const EVENT_FIELD = { chunk: 2, thinking: 3 } as const;
/** StreamChunk.content = 1, StreamThinking.content = 1. */
const CONTENT = 1;

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

/** The text of a chunk or thinking frame, or undefined for any other reply. */
export function textOf(reply: Reply): { field: 2 | 3; content: string } | undefined {
  if (reply.case !== "stream") return undefined;
  const event = reply.value.event;
  if (event?.case === "chunk" || event?.case === "thinking") return { field: EVENT_FIELD[event.case], content: event.value.content ?? "" };
  return undefined;
}

/** The ServerMessage bytes of a text frame, as protobuf-es writes them (an empty text is left out). */
export function encodeTextFrame(field: 2 | 3, content: string): Uint8Array {
  const bytes = content === "" ? 0 : Buffer.byteLength(content, "utf8");
  const inner = bytes === 0 ? 0 : 1 + varintSize(bytes) + bytes; // StreamChunk
  const event = 1 + varintSize(inner) + inner; // StreamEvent
  const out = Buffer.allocUnsafe(1 + varintSize(event) + event);
  let at = 0;
  out[at++] = (SERVER_STREAM << 3) | LEN;
  at = writeVarint(out, at, event);
  out[at++] = (field << 3) | LEN;
  at = writeVarint(out, at, inner);
  if (bytes > 0) {
    out[at++] = (CONTENT << 3) | LEN;
    at = writeVarint(out, at, bytes);
    out.write(content, at, "utf8");
  }
  return out;
}
