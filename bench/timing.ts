// Time-bounded loops over async operations, each call timed on its own.
import { mean, percentile, round, sorted } from "./stats.ts";

/** Hard cap on measured calls of one loop, whatever the clock says. */
const MAX_SAMPLES = 2_000_000;

export interface AsyncLoopOptions {
  /** Measured time in ms (after warm-up). */
  durationMs: number;
  /** Warm-up time in ms; default ~1/5 of the budget, at least 20 ms. */
  warmupMs?: number;
}

/**
 * Runs `op` sequentially (each awaited) for a warm-up, then for `durationMs`;
 * returns the measured calls' durations in µs and the loop's wall time.
 */
export async function timeAsync(op: () => Promise<unknown>, options: AsyncLoopOptions): Promise<{ samplesUs: Float64Array; seconds: number }> {
  const warmNs = (options.warmupMs ?? Math.max(20, options.durationMs / 5)) * 1e6;
  const warmStart = Bun.nanoseconds();
  while (Bun.nanoseconds() - warmStart < warmNs) await op();

  const samples = new Float64Array(MAX_SAMPLES);
  let n = 0;
  const start = Bun.nanoseconds();
  const deadline = start + options.durationMs * 1e6;
  let t0 = start;
  while (t0 < deadline && n < MAX_SAMPLES) {
    await op();
    const t1 = Bun.nanoseconds();
    samples[n++] = (t1 - t0) / 1e3;
    t0 = t1;
  }
  return { samplesUs: samples.slice(0, n), seconds: (Bun.nanoseconds() - start) / 1e9 };
}

export interface UsSummary {
  mean_us: number;
  p50_us: number;
  p99_us: number;
  iterations: number;
}

/** mean / p50 / p99 of µs samples, rounded for the report. */
export function summarizeUs(samplesUs: ArrayLike<number>, digits = 2): UsSummary {
  const s = sorted(samplesUs);
  return {
    mean_us: round(mean(s), digits),
    p50_us: round(percentile(s, 50, true), digits),
    p99_us: round(percentile(s, 99, true), digits),
    iterations: s.length,
  };
}
