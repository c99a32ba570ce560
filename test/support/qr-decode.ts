// A QR code reader for tests of src/cli/qr/: written apart from the encoder (its
// own field arithmetic, function-module map and bit reading), it takes a module
// grid back to its text and checks every block's Reed–Solomon syndromes, so a
// symbol that a real scanner would misread fails here.
import { alignmentCentres, blockLayout, countBits, type EcLevel } from "../../src/cli/qr/tables.ts";

const EXP: number[] = [];
const LOG: number[] = new Array(256).fill(0);
for (let i = 0, v = 1; i < 255; i++) {
  EXP[i] = v;
  LOG[v] = i;
  v <<= 1;
  if (v & 0x100) v ^= 0x11d;
}
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : EXP[(LOG[a]! + LOG[b]!) % 255]!);

/** The codeword polynomial (highest power first) evaluated at α^i is 0 for each i < ec. */
function syndromesZero(block: number[], ec: number): boolean {
  for (let i = 0; i < ec; i++) {
    let value = 0;
    for (const c of block) value = mul(value, EXP[i]!) ^ c;
    if (value !== 0) return false;
  }
  return true;
}

/** The 15 format bits, computed by the written-out rule rather than the encoder's. */
function formatWord(level: EcLevel, mask: number): number {
  const data = ((level === "L" ? 0b01 : 0b00) << 3) | mask;
  let word = data << 10;
  for (let bit = 14; bit >= 10; bit--) if (word & (1 << bit)) word ^= 0x537 << (bit - 10);
  return ((data << 10) | word) ^ 0x5412;
}

function functionModules(size: number, version: number): boolean[][] {
  const f = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const box = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (x >= 0 && y >= 0 && x < size && y < size) f[y]![x] = true;
  };
  box(0, 0, 9, 9); // finder, separator, format
  box(size - 8, 0, 8, 9);
  box(0, size - 8, 9, 8);
  box(6, 0, 1, size);
  box(0, 6, size, 1);
  const inFinder = (x: number, y: number) => (x < 9 && y < 9) || (x > size - 9 && y < 9) || (x < 9 && y > size - 9);
  const c = alignmentCentres(version);
  for (const x of c) for (const y of c) if (!inFinder(x, y)) box(x - 2, y - 2, 5, 5);
  if (version >= 7) {
    box(size - 11, 0, 3, 6);
    box(0, size - 11, 6, 3);
  }
  return f;
}

const MASKS: ((r: number, c: number) => boolean)[] = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

export interface Decoded {
  text: string;
  version: number;
  level: EcLevel;
  mask: number;
}

/** modules[row][col], true = dark, without a quiet zone. Throws on anything a reader would reject. */
export function decodeQr(modules: boolean[][]): Decoded {
  const size = modules.length;
  const version = (size - 17) / 4;
  if (!Number.isInteger(version) || version < 1) throw new Error(`bad size ${size}`);
  const at = (r: number, c: number) => (modules[r]![c] ? 1 : 0);
  for (const [r0, c0] of [
    [0, 0],
    [0, size - 7],
    [size - 7, 0],
  ] as const) {
    for (let r = 0; r < 7; r++) {
      for (let c = 0; c < 7; c++) {
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        if (at(r0 + r, c0 + c) !== (ring === 2 ? 0 : 1)) throw new Error("finder pattern broken");
      }
    }
  }
  // Format copy 1 around the top-left finder, bit 14 first; copy 2 split between the other two.
  const copy1Cells: [number, number][] = [
    [8, 0],
    [8, 1],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 7],
    [8, 8],
    [7, 8],
    [5, 8],
    [4, 8],
    [3, 8],
    [2, 8],
    [1, 8],
    [0, 8],
  ];
  const copy2Cells: [number, number][] = [];
  for (let i = 0; i < 7; i++) copy2Cells.push([size - 1 - i, 8]);
  for (let i = 0; i < 8; i++) copy2Cells.push([8, size - 8 + i]);
  const read = (cells: [number, number][]) => cells.reduce((acc, [r, c]) => (acc << 1) | at(r, c), 0);
  const copy1 = read(copy1Cells);
  const copy2 = read(copy2Cells);
  if (copy1 !== copy2) throw new Error(`format copies differ: ${copy1.toString(2)} ${copy2.toString(2)}`);
  let found: { level: EcLevel; mask: number } | undefined;
  for (const level of ["L", "M"] as const) for (let mask = 0; mask < 8; mask++) if (formatWord(level, mask) === copy1) found = { level, mask };
  if (!found) throw new Error(`no level and mask give format ${copy1.toString(2)}`);
  if (at(size - 8, 8) !== 1) throw new Error("dark module missing");

  const fn = functionModules(size, version);
  const bits: number[] = [];
  let upward = true; // the first column pair is read bottom to top, then the direction turns at each pair
  for (let right = size - 1; right >= 1; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const r = upward ? size - 1 - step : step;
      for (const c of [right, right - 1]) if (!fn[r]![c]) bits.push(at(r, c) ^ (MASKS[found.mask]!(r, c) ? 1 : 0));
    }
  }
  const codewords: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));

  const { ecPerBlock, groups } = blockLayout(version, found.level);
  const sizes = groups.flatMap(([n, d]) => new Array<number>(n).fill(d));
  const blocks = sizes.map(() => [] as number[]);
  let k = 0;
  for (let i = 0; i < Math.max(...sizes); i++) sizes.forEach((d, b) => i < d && blocks[b]!.push(codewords[k++]!));
  for (let i = 0; i < ecPerBlock; i++) blocks.forEach((b) => b.push(codewords[k++]!));
  blocks.forEach((b, i) => {
    if (!syndromesZero(b, ecPerBlock)) throw new Error(`block ${i} fails its Reed–Solomon check`);
  });
  const data = blocks.flatMap((b, i) => b.slice(0, sizes[i]));

  let pos = 0;
  const take = (n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++, pos++) v = (v << 1) | ((data[pos >>> 3]! >>> (7 - (pos & 7))) & 1);
    return v;
  };
  const mode = take(4);
  if (mode !== 0b0100) throw new Error(`mode ${mode.toString(2)}, not byte mode`);
  const length = take(countBits(version));
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = take(8);
  return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), version, ...found };
}
