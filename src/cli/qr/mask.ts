// The eight data masks and the penalty rules that choose among them
// (ISO/IEC 18004, 7.8): the mask with the lowest penalty is used.
import type { QrGrid } from "./matrix.ts";

const MASKS: readonly ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** Flips the data modules the mask selects; applying it twice undoes it. */
export function applyMask(grid: QrGrid, mask: number): void {
  const select = MASKS[mask]!;
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size; x++) if (!grid.reserved[y]![x] && select(x, y)) grid.dark[y]![x] = !grid.dark[y]![x];
  }
}

const FINDER_LIKE = [
  [true, false, true, true, true, false, true, false, false, false, false],
  [false, false, false, false, true, false, true, true, true, false, true],
];

/** Penalty of a line of modules: runs of five or more, and finder-like patterns. */
function linePenalty(line: readonly boolean[]): number {
  let score = 0;
  let run = 1;
  for (let i = 1; i <= line.length; i++) {
    if (i < line.length && line[i] === line[i - 1]) {
      run++;
      continue;
    }
    if (run >= 5) score += 3 + (run - 5);
    run = 1;
  }
  for (let i = 0; i + 11 <= line.length; i++) {
    if (FINDER_LIKE.some((p) => p.every((dark, k) => line[i + k] === dark))) score += 40;
  }
  return score;
}

export function penalty(grid: QrGrid): number {
  const { dark, size } = grid;
  let score = 0;
  for (let i = 0; i < size; i++) {
    score += linePenalty(dark[i]!);
    score += linePenalty(dark.map((row) => row[i]!));
  }
  let darkCount = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (dark[y]![x]) darkCount++;
      if (y + 1 < size && x + 1 < size) {
        const c = dark[y]![x];
        if (dark[y]![x + 1] === c && dark[y + 1]![x] === c && dark[y + 1]![x + 1] === c) score += 3;
      }
    }
  }
  const percent = (darkCount * 100) / (size * size);
  return score + 10 * Math.floor(Math.abs(percent - 50) / 5);
}
