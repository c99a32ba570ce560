// The one way tests wait: poll a condition until it holds, with a deadline
// that names what was awaited. A fixed sleep standing in for a condition
// passes at rest and fails on a busy machine; this does not.

export interface UntilOptions {
  /** What is awaited, for the timeout message ("the title", "the unload"). */
  what: string;
  /** Deadline; default 10 s. */
  timeoutMs?: number;
  /** Pause between polls; default 20 ms. */
  intervalMs?: number;
}

export const DEFAULT_UNTIL_TIMEOUT_MS = 10_000;

/**
 * Resolves with the first value of `condition` that is not `undefined`,
 * `null` or `false` (so it can hand back what it found); throws "timed out
 * after N ms waiting for <what>" when the deadline passes first. A condition
 * that throws fails the wait at once.
 */
export async function until<T>(
  condition: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { what, timeoutMs = DEFAULT_UNTIL_TIMEOUT_MS, intervalMs = 20 }: UntilOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}
