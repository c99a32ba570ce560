// A full collection after every half MiB of answer text that went through
// the daemon. Each MiB of a streamed answer leaves several MiB of short-lived
// copies behind (the provider's event bytes, their decoded text, the frames
// written to the client), and the engine's own schedule let them pile up to
// several times the answer before it collected (docs/benchmarks.md#memory).
// A collection costs a few ms (4–9 ms measured on a loaded machine); an
// ordinary answer of a few KiB is far from the threshold, a long one pays one
// collection per CHURN_BYTES it streams in and again per CHURN_BYTES framed out.

/** Bytes of text after which the next collection runs. */
export const CHURN_BYTES = 512 * 1024;

let pending = 0;

/** Counts `bytes` of answer text handled (streamed in, or framed out); collects once enough passed. */
export function churned(bytes: number): void {
  pending += bytes;
  if (pending < CHURN_BYTES) return;
  pending = 0;
  Bun.gc(true);
}
