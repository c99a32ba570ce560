// Per-turn bookkeeping of a session's working history that does not rescan
// it: the compaction estimate (docs/agent-loop.md#when-it-runs) as a running tally, and the
// removal of the previous run's injected context in place. Runs append to
// the history at its end (injected context only right before their user
// message); anything else (compaction replacing it, a reload from the file)
// is noticed and the tally starts over.
import type { Message } from "../model/types.ts";
import { historyBytes } from "../session/estimate.ts";

interface Tally {
  /** history[0..counted) is in `bytes`; history[counted - 1] was `last`. */
  counted: number;
  last: Message | undefined;
  bytes: number;
}

const tallies = new WeakMap<readonly Message[], Tally>();

/** Whether history[0..upTo) can still be what it was when history[upTo - 1] was `last`: only appended to since. */
function appendedOnly(history: readonly Message[], upTo: number, last: Message | undefined): boolean {
  return upTo <= history.length && (upTo === 0 || history[upTo - 1] === last);
}

/**
 * historyTokenEstimate(history), counting only the messages added since the
 * last call on the same array. A history that was not only appended to (its
 * last counted message moved or gone) is counted again from the start.
 */
export function historyTokens(history: readonly Message[]): number {
  let tally = tallies.get(history);
  if (!tally || !appendedOnly(history, tally.counted, tally.last)) {
    tally = { counted: 0, last: undefined, bytes: 0 };
    tallies.set(history, tally);
  }
  for (let i = tally.counted; i < history.length; i++) tally.bytes += historyBytes(history[i]);
  tally.counted = history.length;
  tally.last = history[history.length - 1];
  return Math.floor(tally.bytes / 4);
}

const isInjected = (m: Message): boolean => m.role === "user" && m.injected === true;

/** history[0..upTo) held no injected message at the last dropInjected, and history[upTo - 1] was `last`. */
const clean = new WeakMap<readonly Message[], { upTo: number; last: Message | undefined }>();

/**
 * Removes the injected context messages (never persisted, replaced before
 * every run) in place, keeping the tally in step. Runs add them only at the
 * end, so only what was added since the last call is looked at (all of it
 * when the history was not only appended to since).
 */
export function dropInjected(history: Message[]): void {
  const mark = clean.get(history);
  const from = mark && appendedOnly(history, mark.upTo, mark.last) ? mark.upTo : 0;
  let first = -1;
  for (let i = from; i < history.length && first === -1; i++) if (isInjected(history[i])) first = i;
  if (first !== -1) {
    const tally = tallies.get(history);
    let kept = first;
    let uncounted = 0;
    for (let i = first; i < history.length; i++) {
      const m = history[i];
      if (!isInjected(m)) history[kept++] = m;
      else if (tally && i < tally.counted) {
        tally.bytes -= historyBytes(m);
        uncounted++;
      }
    }
    history.length = kept;
    if (tally) tally.counted -= uncounted;
  }
  clean.set(history, { upTo: history.length, last: history[history.length - 1] });
}
