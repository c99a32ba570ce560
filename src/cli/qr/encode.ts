// A small QR code encoder for `crabtalk remote pair --qr`: byte mode, level M
// by default, versions 1–10, the mask chosen by the standard's penalty rules.
import { dataCodewordsOf, interleaved, segmentBits } from "./codewords.ts";
import { QrGrid } from "./matrix.ts";
import { applyMask, penalty } from "./mask.ts";
import { dataCodewords, formatBits, MAX_VERSION, type EcLevel } from "./tables.ts";

export interface QrCode {
  version: number;
  level: EcLevel;
  mask: number;
  size: number;
  /** modules[y][x], true = dark; without the quiet zone. */
  modules: boolean[][];
}

/** The smallest symbol that holds `text` (UTF-8). Throws when it needs more than version 10. */
export function encodeQr(text: string, level: EcLevel = "M"): QrCode {
  const bytes = new TextEncoder().encode(text);
  let version = 1;
  while (version <= MAX_VERSION && segmentBits(bytes.length, version) > dataCodewords(version, level) * 8) version++;
  if (version > MAX_VERSION) {
    throw new Error(`text of ${bytes.length} bytes is too long for a QR code of version ${MAX_VERSION} at level ${level}`);
  }
  const grid = new QrGrid(version);
  grid.placeCodewords(interleaved(dataCodewordsOf(bytes, version, level), version, level));
  let best = { mask: 0, score: Infinity };
  for (let mask = 0; mask < 8; mask++) {
    applyMask(grid, mask);
    grid.drawFormat(formatBits(level, mask));
    const score = penalty(grid);
    if (score < best.score) best = { mask, score };
    applyMask(grid, mask);
  }
  applyMask(grid, best.mask);
  grid.drawFormat(formatBits(level, best.mask));
  return { version, level, mask: best.mask, size: grid.size, modules: grid.dark };
}
