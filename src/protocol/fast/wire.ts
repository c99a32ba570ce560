// Protobuf wire format (varints, length-delimited fields, fixed64) for the
// hand-written client codec: just what its message table needs.

export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

const utf8Encoder = new TextEncoder();
// ignoreBOM: a string that begins with U+FEFF keeps it, as protobuf-es keeps it.
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export class Writer {
  private buf = new Uint8Array(64);
  private pos = 0;

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  tag(no: number, wireType: number): void {
    this.varint((no << 3) | wireType);
  }

  /** An unsigned varint of up to 32 bits (tags, lengths, uint32, bool). */
  varint(v: number): void {
    this.reserve(5);
    v >>>= 0;
    while (v > 0x7f) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  varint64(v: bigint): void {
    this.reserve(10);
    v = BigInt.asUintN(64, v);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  double(v: number): void {
    this.reserve(8);
    new DataView(this.buf.buffer, this.buf.byteOffset).setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.reserve(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  string(s: string): void {
    this.bytes(utf8Encoder.encode(s));
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

export class Reader {
  pos: number;
  private view: DataView;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  private byte(): number {
    if (this.pos >= this.end) throw new Error("premature end of protobuf message");
    return this.buf[this.pos++];
  }

  /** A varint read as uint64. */
  varint64(): bigint {
    let out = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = this.byte();
      out |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, out);
    }
    throw new Error("invalid varint");
  }

  /**
   * A varint truncated to its low 32 bits, unsigned (as protobuf does for uint32).
   * Bytes are read inline, not through byte(): this runs for every tag and
   * length, and a short command should end before the JIT wakes up (issue 11).
   */
  uint32(): number {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    if (pos < end && buf[pos] < 0x80) {
      this.pos = pos + 1;
      return buf[pos];
    }
    let out = 0;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) throw new Error("premature end of protobuf message");
      const b = buf[pos++];
      if (i < 5) out |= (b & 0x7f) << (7 * i);
      if (b < 0x80) {
        this.pos = pos;
        return out >>> 0;
      }
    }
    throw new Error("invalid varint");
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new Error("premature end of protobuf message");
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** The [start, end) of a length-delimited field's body; moves past it. */
  span(): [number, number] {
    // One-byte lengths inline: fewer calls keep uint32 cold (see there).
    const first = this.pos < this.end ? this.buf[this.pos] : 0x80;
    const len = first < 0x80 ? (this.pos++, first) : this.uint32();
    const start = this.pos;
    if (start + len > this.end) throw new Error("premature end of protobuf message");
    this.pos += len;
    return [start, this.pos];
  }

  string(): string {
    const [start, end] = this.span();
    return utf8Decoder.decode(this.buf.subarray(start, end));
  }

  sub(): Reader {
    const [start, end] = this.span();
    return new Reader(this.buf, start, end);
  }

  /** Skips one field of the given wire type (unknown fields). */
  skip(wireType: number, no: number): void {
    switch (wireType) {
      case VARINT:
        while (this.byte() & 0x80);
        return;
      case FIXED64:
        return this.advance(8);
      case LEN:
        this.span();
        return;
      case FIXED32:
        return this.advance(4);
      case 3: // start group: skip to the matching end group
        for (;;) {
          const tag = this.uint32();
          if ((tag & 7) === 4) {
            if (tag >>> 3 !== no) throw new Error("invalid end group tag");
            return;
          }
          this.skip(tag & 7, tag >>> 3);
        }
      default:
        throw new Error(`cannot skip wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new Error("premature end of protobuf message");
    this.pos += n;
  }
}
