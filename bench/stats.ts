// Small summary helpers for benchmark samples. Pure functions, no I/O.

export function mean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i];
  return sum / xs.length;
}

/** Ascending copy; the input is left untouched. */
export function sorted(xs: ArrayLike<number>): Float64Array {
  return Float64Array.from(xs).sort();
}

/**
 * The p-th percentile (0..100) by linear interpolation between closest ranks.
 * Pass `alreadySorted` when the samples are an ascending array to skip the sort.
 */
export function percentile(xs: ArrayLike<number>, p: number, alreadySorted = false): number {
  if (xs.length === 0) return NaN;
  const s = alreadySorted ? xs : sorted(xs);
  const rank = (Math.min(Math.max(p, 0), 100) / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return s[lo] + (s[hi] - s[lo]) * (rank - lo);
}

export function median(xs: ArrayLike<number>): number {
  return percentile(xs, 50);
}

export const p50 = median;

export function p99(xs: ArrayLike<number>): number {
  return percentile(xs, 99);
}

export function min(xs: ArrayLike<number>): number {
  let m = Infinity;
  for (let i = 0; i < xs.length; i++) if (xs[i] < m) m = xs[i];
  return xs.length === 0 ? NaN : m;
}

export function max(xs: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < xs.length; i++) if (xs[i] > m) m = xs[i];
  return xs.length === 0 ? NaN : m;
}

/** Rounds for display in the JSON report (keeps small numbers meaningful). */
export function round(x: number, digits = 2): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Progress output: stderr only, so stdout carries just the final JSON. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
