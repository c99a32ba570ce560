// A protocol client written from docs/protocol.md alone: hand-made protobuf bytes
// and frames over node:net, sharing no code with src/. It proves the wire
// format, not our generated code.
import net from "node:net";

export function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

/** A length-delimited field (wire type 2). */
export function lenField(tag: number, body: Uint8Array | number[]): Uint8Array {
  const b = Array.from(body);
  return new Uint8Array([...varint((tag << 3) | 2), ...varint(b.length), ...b]);
}

export function stringField(tag: number, text: string): Uint8Array {
  return lenField(tag, new TextEncoder().encode(text));
}

/** `[u32 big-endian length][payload]`. */
export function frame(payload: Uint8Array | number[]): Uint8Array {
  const p = Uint8Array.from(payload);
  const out = new Uint8Array(4 + p.length);
  new DataView(out.buffer).setUint32(0, p.length, false);
  out.set(p, 4);
  return out;
}

export interface Field {
  tag: number;
  wire: number;
  /** varint value (wire 0) or body bytes (wire 2). */
  int?: bigint;
  bytes?: Uint8Array;
}

export function parseFields(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let i = 0;
  const readVarint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[i++];
      if (byte === undefined) throw new Error("truncated varint");
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(readVarint());
    const tag = key >> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ tag, wire, int: readVarint() });
    else if (wire === 2) {
      const len = Number(readVarint());
      fields.push({ tag, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return fields;
}

export const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b ?? new Uint8Array());

/** A raw connection: write bytes, read whole frames, notice the close. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
    socket.on("error", () => {});
  }

  /**
   * Connects as the project's own client does: a Unix connect refused while
   * the daemon's accept queue (backlog 512) is full is tried again for up to
   * 1.5 s — a loop of connects can outrun a busy daemon's accepts. Written
   * here again on purpose: this client shares no code with src/.
   */
  static async open(target: { path: string } | { port: number; localPort?: number }): Promise<RawConnection> {
    const deadline = Date.now() + 1500;
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      try {
        return await RawConnection.openOnce(target);
      } catch (err) {
        if (!("path" in target) || (err as { code?: string }).code !== "ECONNREFUSED" || Date.now() + pause > deadline) throw err;
        await Bun.sleep(pause);
      }
    }
  }

  private static openOnce(target: { path: string } | { port: number; localPort?: number }): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket =
        "path" in target
          ? net.createConnection({ path: target.path })
          : net.createConnection({ port: target.port, host: "127.0.0.1", localPort: target.localPort });
      socket.once("connect", () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  write(bytes: Uint8Array | number[]): void {
    this.socket.write(Uint8Array.from(bytes));
  }

  /** Writes, and resolves once every byte is handed to the kernel (none left in this process). */
  flushed(bytes: Uint8Array | number[]): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(Uint8Array.from(bytes), (err) => (err ? reject(err) : resolve())));
  }

  /** Next frame's payload, or null when the daemon closed the connection. */
  async readFrame(timeoutMs = 5000): Promise<Uint8Array | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.buffer.length >= 4) {
        const len = this.buffer.readUInt32BE(0);
        if (this.buffer.length >= 4 + len) {
          const payload = Uint8Array.from(this.buffer.subarray(4, 4 + len));
          this.buffer = this.buffer.subarray(4 + len);
          return payload;
        }
      }
      if (this.closed) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("timed out waiting for a frame");
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, left);
      });
    }
  }

  /** Resolves once the peer has closed (or after the timeout, with false). */
  async waitClosed(timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.closed;
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Closes with a reset: no TIME_WAIT is left on this end, its local port is free again at once. */
  reset(): void {
    this.socket.resetAndDestroy();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

// ClientMessage tags (docs/protocol.md#client-messages) and ServerMessage tags (docs/protocol.md#daemon-messages) used by tests.
export const CLIENT = { send: 1, stream: 2, ping: 30, getConfig: 31, reload: 32, getStats: 33, setConfig: 50 } as const;
export const SERVER = { error: 1, pong: 2, config: 19, stats: 20 } as const;

/** The single variant of a ServerMessage payload. */
export function serverVariant(payload: Uint8Array): Field {
  const fields = parseFields(payload);
  if (fields.length !== 1) throw new Error(`expected one variant, got ${fields.length}`);
  return fields[0];
}

/** ErrorMsg{code=1, message=2}. */
export function errorOf(payload: Uint8Array): { code: number; message: string } {
  const v = serverVariant(payload);
  if (v.tag !== SERVER.error) throw new Error(`expected ErrorMsg, got variant ${v.tag}`);
  const f = parseFields(v.bytes!);
  return {
    code: Number(f.find((x) => x.tag === 1)?.int ?? 0n),
    message: text(f.find((x) => x.tag === 2)?.bytes),
  };
}
