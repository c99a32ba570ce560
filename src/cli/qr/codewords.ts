// The codeword sequence of a QR symbol: the text in byte mode, padded to the
// version's capacity, split into blocks, each followed by its Reed–Solomon
// codewords, and interleaved as the symbol carries them.
import { errorCorrection } from "./reed-solomon.ts";
import { blockLayout, countBits, dataCodewords, type EcLevel } from "./tables.ts";

/** Bits a byte-mode segment of `length` bytes takes at `version`. */
export function segmentBits(length: number, version: number): number {
  return 4 + countBits(version) + 8 * length;
}

/** The data codewords: mode 0100, count, bytes, terminator, pad bytes 0xEC 0x11. */
export function dataCodewordsOf(bytes: Uint8Array, version: number, level: EcLevel): number[] {
  const capacity = dataCodewords(version, level) * 8;
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, countBits(version));
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const codewords: number[] = [];
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((acc, bit) => (acc << 1) | bit, 0));
  return codewords;
}

/** Data and error correction codewords in the order they are placed. */
export function interleaved(data: readonly number[], version: number, level: EcLevel): number[] {
  const { ecPerBlock, groups } = blockLayout(version, level);
  const blocks: number[][] = [];
  let offset = 0;
  for (const [count, size] of groups) {
    for (let b = 0; b < count; b++, offset += size) blocks.push(data.slice(offset, offset + size));
  }
  const ec = blocks.map((block) => errorCorrection(block, ecPerBlock));
  const out: number[] = [];
  const longest = Math.max(...blocks.map((b) => b.length));
  for (let i = 0; i < longest; i++) for (const block of blocks) if (i < block.length) out.push(block[i]!);
  for (let i = 0; i < ecPerBlock; i++) for (const block of ec) out.push(block[i]!);
  return out;
}
