// Length-prefixed framing of docs/protocol.md#frames: [u32 big-endian length][payload].

export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
export const HEADER_BYTES = 4;

/** Prefixes `payload` with its 4-byte big-endian length. */
export function encodeFrame(payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_FRAME_BYTES) {
    throw new FrameTooLargeError(payload.length);
  }
  const out = new Uint8Array(HEADER_BYTES + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, false);
  out.set(payload, HEADER_BYTES);
  return out;
}

export class FrameTooLargeError extends Error {
  constructor(readonly length: number) {
    super(`frame too large: ${length} bytes (max ${MAX_FRAME_BYTES})`);
  }
}

export type FrameEvent =
  | { kind: "frame"; payload: Uint8Array }
  | { kind: "too_large"; length: number }
  /** The transport gave up on a partial frame (too slow, or over the shared memory cap); the peer is told why. */
  | { kind: "abandoned"; code: number; message: string };

/** A client's next reply payload from a frame event; throws what a client should say when there is none. */
export function replyPayload(event: FrameEvent | "closed"): Uint8Array {
  if (event === "closed") throw new Error("connection closed by the daemon");
  if (event.kind === "too_large") throw new Error(`reply frame too large: ${event.length} bytes`);
  if (event.kind === "abandoned") throw new Error(event.message);
  return event.payload;
}

/**
 * Incremental frame reader. Bytes arrive in arbitrary chunks; complete frames
 * come out in order. An oversize header is reported once and the decoder then
 * refuses further input, so the body is never buffered.
 */
export class FrameDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private poisoned = false;

  /** Bytes received but not yet part of a complete frame. */
  get pendingBytes(): number {
    return this.buffered;
  }

  /** Drops what is buffered and refuses further input. */
  abandon(): void {
    this.poisoned = true;
    this.chunks = [];
    this.buffered = 0;
  }

  push(chunk: Uint8Array): FrameEvent[] {
    if (this.poisoned) return [];
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const events: FrameEvent[] = [];
    while (this.buffered >= HEADER_BYTES) {
      const length = this.peekLength();
      if (length > MAX_FRAME_BYTES) {
        this.abandon();
        events.push({ kind: "too_large", length });
        break;
      }
      if (this.buffered < HEADER_BYTES + length) break;
      const bytes = this.take(HEADER_BYTES + length);
      events.push({ kind: "frame", payload: bytes.subarray(HEADER_BYTES) });
    }
    return events;
  }

  private peekLength(): number {
    const head = this.chunks[0].length >= HEADER_BYTES ? this.chunks[0] : this.concat(HEADER_BYTES);
    return new DataView(head.buffer, head.byteOffset, HEADER_BYTES).getUint32(0, false);
  }

  /** Removes and returns the first `n` buffered bytes. */
  private take(n: number): Uint8Array {
    const first = this.chunks[0];
    let out: Uint8Array;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = this.concat(n);
      let left = n;
      while (left > 0) {
        const c = this.chunks[0];
        if (c.length <= left) {
          left -= c.length;
          this.chunks.shift();
        } else {
          this.chunks[0] = c.subarray(left);
          left = 0;
        }
      }
    }
    this.buffered -= n;
    return out;
  }

  /** Copies the first `n` buffered bytes into one array without consuming them. */
  private concat(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let off = 0;
    for (const c of this.chunks) {
      const part = c.subarray(0, Math.min(c.length, n - off));
      out.set(part, off);
      off += part.length;
      if (off === n) break;
    }
    return out;
  }
}
