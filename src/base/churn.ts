// A collection after every few MiB of answer text that went through the
// daemon. Each MiB of a streamed answer leaves several MiB of short-lived
// copies behind (the provider's event bytes, their decoded text, the frames
// written to the client), and the engine's own schedule let them pile up to
// several times the answer before it collected (docs/benchmarks.md#memory).
// A full collection costs a few ms; an ordinary answer of a few KiB never gets
// near the threshold, a long one pays it once per CHURN_BYTES.

/** Bytes of text after which the next collection runs. */
export const CHURN_BYTES = 1 * 1024 * 1024;

let pending = 0;

/** Counts `bytes` of answer text handled (streamed in, or framed out); collects once enough passed. */
export function churned(bytes: number): void {
  pending += bytes;
  if (pending < CHURN_BYTES) return;
  pending = 0;
  Bun.gc(true);
}
