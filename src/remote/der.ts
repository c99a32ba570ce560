// The little of ASN.1 DER an X.509 certificate needs (ITU-T X.690): a
// tag-length-value writer and the types self-signed.ts uses.

export function tlv(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  let length: number[];
  if (n < 0x80) length = [n];
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    length = [0x80 | bytes.length, ...bytes];
  }
  const out = new Uint8Array(1 + length.length + n);
  out[0] = tag;
  out.set(length, 1);
  out.set(content, 1 + length.length);
  return out;
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const sequence = (...parts: Uint8Array[]) => tlv(0x30, concat(parts));
export const set = (...parts: Uint8Array[]) => tlv(0x31, concat(parts));
export const octetString = (bytes: Uint8Array) => tlv(0x04, bytes);
export const utf8String = (s: string) => tlv(0x0c, new TextEncoder().encode(s));
export const bitString = (bytes: Uint8Array) => tlv(0x03, concat([new Uint8Array([0]), bytes]));
export const boolean = (v: boolean) => tlv(0x01, new Uint8Array([v ? 0xff : 0]));
/** [n] EXPLICIT: a constructed context tag around the value. */
export const explicit = (n: number, inner: Uint8Array) => tlv(0xa0 | n, inner);

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps it positive). */
export function integer(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && bytes[start + 1] < 0x80) start++;
  const body = bytes.subarray(start);
  return tlv(0x02, body[0] >= 0x80 ? concat([new Uint8Array([0]), body]) : body);
}

export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split(".").map(Number);
  const bytes: number[] = [40 * arcs[0] + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    bytes.push(...base128);
  }
  return tlv(0x06, new Uint8Array(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
export function time(date: Date): Uint8Array {
  const iso = date.toISOString(); // 2026-11-26T20:52:18.000Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, "");
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(0x17, new TextEncoder().encode(`${digits.slice(2)}Z`)) : tlv(0x18, new TextEncoder().encode(`${digits}Z`));
}
