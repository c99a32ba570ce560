// The QR code's tables for versions 1–10 at error correction levels L and M
// (ISO/IEC 18004, tables 9 and E.1): enough for a link of up to 271 bytes (L)
// or 213 bytes (M), which a pairing link never comes near.

export type EcLevel = "L" | "M";

/** Error correction codewords per block, then the two groups' block counts and data codewords per block. */
interface BlockLayout {
  ecPerBlock: number;
  groups: readonly (readonly [blocks: number, dataPerBlock: number])[];
}

const layout = (ecPerBlock: number, ...groups: [number, number][]): BlockLayout => ({ ecPerBlock, groups });

const BLOCKS: Record<EcLevel, readonly BlockLayout[]> = {
  L: [
    layout(7, [1, 19]),
    layout(10, [1, 34]),
    layout(15, [1, 55]),
    layout(20, [1, 80]),
    layout(26, [1, 108]),
    layout(18, [2, 68]),
    layout(20, [2, 78]),
    layout(24, [2, 97]),
    layout(30, [2, 116]),
    layout(18, [2, 68], [2, 69]),
  ],
  M: [
    layout(10, [1, 16]),
    layout(16, [1, 28]),
    layout(26, [1, 44]),
    layout(18, [2, 32]),
    layout(24, [2, 43]),
    layout(16, [4, 27]),
    layout(18, [4, 31]),
    layout(22, [2, 38], [2, 39]),
    layout(22, [3, 36], [2, 37]),
    layout(26, [4, 43], [1, 44]),
  ],
};

/** Centres of the alignment patterns along each axis, versions 2–10 (version 1 has none). */
const ALIGNMENT: readonly (readonly number[])[] = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

export const MAX_VERSION = 10;

export function blockLayout(version: number, level: EcLevel): BlockLayout {
  return BLOCKS[level][version - 1]!;
}

export function dataCodewords(version: number, level: EcLevel): number {
  return blockLayout(version, level).groups.reduce((sum, [blocks, data]) => sum + blocks * data, 0);
}

export function alignmentCentres(version: number): readonly number[] {
  return ALIGNMENT[version - 1]!;
}

/** Bits of the byte mode's character count: 8 up to version 9, 16 from 10. */
export function countBits(version: number): number {
  return version <= 9 ? 8 : 16;
}

/** Format information bits of a level and mask: 2+3 data bits, BCH(15,5), masked with 0x5412. */
export function formatBits(level: EcLevel, mask: number): number {
  const data = ((level === "L" ? 1 : 0) << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

/** Version information bits (versions 7+): 6 data bits, BCH(18,6). */
export function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}
