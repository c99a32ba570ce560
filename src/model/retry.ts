// Retries and per-attempt timeouts around an adapter (docs/providers.md#errors), the
// one place they live. Transient failures (429, 5xx, connection errors,
// timeouts) are retried with exponential backoff; a stream is retried only
// while it has produced nothing, since after its first chunk the caller has
// already forwarded output.
import type { Adapter } from "./adapter.ts";
import { ProviderError } from "./errors.ts";
import type { Model, ModelRequest, ModelResponse, StreamChunk } from "./types.ts";

interface RetryPolicy {
  /** Retries after the first attempt; 0 = none. */
  maxRetries: number;
  /** Per-attempt timeout; for a stream, until its first chunk. 0 = none. */
  timeoutMs: number;
  /** First backoff; doubles per retry. Default 100 ms. */
  baseDelayMs?: number;
  /** Source of jitter in [0, 1); default Math.random. */
  random?: () => number;
}

const DEFAULT_BASE_DELAY_MS = 100;

/** The wait before retry `n` (0-based): uniform in [b/2, b] with b = base·2ⁿ. */
export function backoffDelay(n: number, baseDelayMs = DEFAULT_BASE_DELAY_MS, random: () => number = Math.random): number {
  const backoff = baseDelayMs * 2 ** n;
  return backoff / 2 + random() * (backoff / 2);
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

function abortedError(): ProviderError {
  return new ProviderError("provider request aborted", { kind: "aborted" });
}

/**
 * One attempt's abort signal and deadline. `race` settles a promise of the
 * attempt early when the deadline passes or the caller aborts.
 */
class Attempt {
  private readonly controller = new AbortController();
  private readonly stopped: Promise<never>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onParentAbort: () => void;
  timedOut = false;

  constructor(
    private readonly parent: AbortSignal | undefined,
    timeoutMs: number,
    timeoutError: () => ProviderError,
  ) {
    let stop: (err: ProviderError) => void = () => {};
    this.stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    this.stopped.catch(() => {}); // observed through race() only
    this.onParentAbort = () => {
      this.controller.abort(parent?.reason);
      stop(abortedError());
    };
    if (parent?.aborted) this.onParentAbort();
    else parent?.addEventListener("abort", this.onParentAbort, { once: true });
    if (timeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
        stop(timeoutError());
      }, timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get parentAborted(): boolean {
    return this.parent?.aborted ?? false;
  }

  race<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.stopped]);
  }

  /** The deadline no longer applies (a stream produced its first chunk). */
  clearDeadline(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.clearDeadline();
    this.parent?.removeEventListener("abort", this.onParentAbort);
  }

  /** What a failure of this attempt means to the caller. */
  explain(err: unknown, timeoutError: () => ProviderError): ProviderError {
    if (this.timedOut) return timeoutError();
    if (this.parentAborted) return abortedError();
    if (err instanceof ProviderError) return err;
    return new ProviderError(`provider error: ${err instanceof Error ? err.message : String(err)}`, {
      kind: "other",
      cause: err,
    });
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A Model over `adapter` with the policy's retries and timeouts. */
export function withRetry(adapter: Adapter, policy: RetryPolicy): Model {
  const { maxRetries, timeoutMs } = policy;
  const baseDelayMs = policy.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const random = policy.random ?? Math.random;
  const completeTimeout = () =>
    new ProviderError(`provider error: request to ${adapter.baseUrl} timed out after ${seconds(timeoutMs)}`, {
      kind: "timeout",
    });
  const streamTimeout = () =>
    new ProviderError(`stream connection timed out after ${seconds(timeoutMs)} (${adapter.baseUrl})`, {
      kind: "timeout",
    });

  const shouldRetry = (err: ProviderError, retry: number, attempt: Attempt) => err.transient && retry < maxRetries && !attempt.parentAborted;

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    for (let retry = 0; ; retry++) {
      const attempt = new Attempt(request.signal, timeoutMs, completeTimeout);
      try {
        return await attempt.race(adapter.complete({ ...request, signal: attempt.signal }));
      } catch (e) {
        const err = attempt.explain(e, completeTimeout);
        if (!shouldRetry(err, retry, attempt)) throw err;
      } finally {
        attempt.dispose();
      }
      await sleep(backoffDelay(retry, baseDelayMs, random), request.signal);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    for (let retry = 0; ; retry++) {
      const attempt = new Attempt(request.signal, timeoutMs, streamTimeout);
      const chunks = adapter.stream({ ...request, signal: attempt.signal })[Symbol.asyncIterator]();
      let first: IteratorResult<StreamChunk>;
      try {
        first = await attempt.race(chunks.next());
      } catch (e) {
        attempt.dispose();
        // Do not wait: a generator still inside next() returns only once that settles.
        chunks.return?.()?.catch(() => {});
        const err = attempt.explain(e, streamTimeout);
        if (!shouldRetry(err, retry, attempt)) throw err;
        await sleep(backoffDelay(retry, baseDelayMs, random), request.signal);
        continue;
      }
      attempt.clearDeadline();
      let done = first.done ?? false;
      try {
        if (!first.done) yield first.value;
        while (!done) {
          const next = await chunks.next();
          done = next.done ?? false;
          if (!next.done) yield next.value;
        }
      } catch (e) {
        done = true; // a failed generator is finished
        throw attempt.explain(e, streamTimeout);
      } finally {
        attempt.dispose();
        // The caller stopped early: let the adapter close its connection.
        if (!done) await chunks.return?.()?.catch(() => {});
      }
      return;
    }
  }

  return { complete, stream };
}
