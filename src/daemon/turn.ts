// Runs a turn as its own task: the run goes to completion (and to disk) even
// when the client that asked for it stops listening; the client reads the
// events from a queue.
import { runTurn, type TurnEvent, type TurnInput, type TurnOutcome } from "../runtime/run.ts";
import type { Host } from "../runtime/host.ts";
import { mcpWait } from "../runtime/runtime.ts";
import type { Session } from "../runtime/sessions.ts";
import { useNormalJitPolicy } from "../base/jit-policy.ts";

export interface TurnTask {
  /** Events in order; ends after the `done` event. */
  events: AsyncGenerator<TurnEvent>;
  outcome: Promise<TurnOutcome>;
}

/** Takes the session's lock, runs the turn, releases the lock. */
export function startTurn(host: Host, session: Session, input: TurnInput): TurnTask {
  useNormalJitPolicy();
  const queue: TurnEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const push = (e: TurnEvent) => {
    queue.push(e);
    wake?.();
  };
  const outcome = (async () => {
    const release = await session.lock.lock();
    session.beginRun();
    try {
      // The runtime current when the run starts serves all of it (a reload mid-run changes nothing).
      // A Cancel or Kill while waiting for MCP servers ends the wait; the run then stops at once.
      const wait = mcpWait(host.runtime, session.agent);
      const runtime = wait ? await unlessAborted(wait, session.stopSignal, host.runtime) : host.runtime;
      const turn = runTurn(runtime, host, session, input);
      for (;;) {
        const next = await turn.next();
        if (next.done) return next.value;
        push(next.value);
      }
    } finally {
      session.endRun();
      release();
      finished = true;
      wake?.();
    }
  })();
  // The task's failure is reported through `outcome`; the event reader just stops.
  outcome.catch(() => {});

  async function* events(): AsyncGenerator<TurnEvent> {
    for (;;) {
      const e = queue.shift();
      if (e) {
        yield e;
        if (e.type === "done") return;
        continue;
      }
      if (finished) {
        await outcome; // surfaces an unexpected failure to the reader
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }
  return { events: events(), outcome };
}

/** `p`'s value, or `fallback` as soon as `signal` aborts. */
function unlessAborted<T>(p: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
  if (signal.aborted) return Promise.resolve(fallback);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(fallback);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
