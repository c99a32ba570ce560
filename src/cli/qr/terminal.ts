// A QR code drawn in a terminal with Unicode half blocks: each character is two
// modules stacked (▀ top dark, ▄ bottom dark, █ both, space neither), inside
// the standard's quiet zone of four light modules.
import type { QrCode } from "./encode.ts";

export const QUIET_ZONE = 4;

const GLYPHS = [" ", "▄", "▀", "█"]; // index: top dark ×2 + bottom dark

/**
 * The lines of the code, dark modules as ink. With `colors`, each line is set
 * black on white, so that a terminal with a dark background shows it the right
 * way round too (scanners want dark modules on light).
 */
export function qrLines(code: QrCode, colors: boolean): string[] {
  const span = code.size + 2 * QUIET_ZONE;
  const darkAt = (x: number, y: number) => {
    const cx = x - QUIET_ZONE;
    const cy = y - QUIET_ZONE;
    return cx >= 0 && cy >= 0 && cx < code.size && cy < code.size && code.modules[cy]![cx]!;
  };
  const lines: string[] = [];
  for (let y = 0; y < span; y += 2) {
    let line = "";
    for (let x = 0; x < span; x++) line += GLYPHS[(darkAt(x, y) ? 2 : 0) + (darkAt(x, y + 1) ? 1 : 0)];
    lines.push(colors ? `\x1b[30;47m${line}\x1b[0m` : line);
  }
  return lines;
}
