// Limits every streamed answer obeys, whatever the adapter (docs/providers.md#errors
// covers only opening the stream): a provider that goes quiet between chunks
// longer than the idle limit, or that sends more than the answer cap, ends the
// attempt with an error and its request is aborted. Applied by the registry
// below the retries, so an adapter only has to honour its request's signal.
import type { Adapter } from "./adapter.ts";
import { ProviderError } from "./errors.ts";
import { churned } from "../base/churn.ts";
import type { ModelRequest, StreamChunk } from "./types.ts";

interface StreamLimits {
  /** Longest wait for the next chunk, in ms; 0 = none. */
  idleMs: number;
  /** Most bytes (UTF-8) of text, reasoning and tool arguments in one answer; 0 = none. */
  maxAnswerBytes: number;
}

/** The error of an answer over the cap (also raised by adapters that see it first). */
export function answerTooLarge(baseUrl: string, maxAnswerBytes: number): ProviderError {
  return new ProviderError(`provider error: the answer from ${baseUrl} exceeds max_answer_bytes (${maxAnswerBytes} bytes)`, {
    kind: "stream",
  });
}

export function withStreamLimits(adapter: Adapter, limits: StreamLimits): Adapter {
  const tooLarge = () => answerTooLarge(adapter.baseUrl, limits.maxAnswerBytes);
  return {
    baseUrl: adapter.baseUrl,
    // A whole answer (titles, compaction summaries) obeys the cap too, so none is ever stored beyond it.
    complete: async (request) => {
      const response = await adapter.complete(request);
      const bytes = [response.content, response.reasoning ?? "", ...response.toolCalls.map((c) => c.name + c.arguments)].reduce(
        (n, s) => n + Buffer.byteLength(s),
        0,
      );
      if (limits.maxAnswerBytes > 0 && bytes > limits.maxAnswerBytes) throw tooLarge();
      return response;
    },
    stream: (request) => limitedStream(adapter, request, limits, tooLarge),
  };
}

/** UTF-8 bytes of the model output a chunk carries. */
function chunkBytes(chunk: StreamChunk): number {
  switch (chunk.type) {
    case "text":
    case "thinking":
      return Buffer.byteLength(chunk.text);
    case "tool_call":
      return Buffer.byteLength(chunk.arguments ?? "") + Buffer.byteLength(chunk.name ?? "");
    default:
      return 0;
  }
}

async function* limitedStream(adapter: Adapter, request: ModelRequest, limits: StreamLimits, tooLarge: () => ProviderError): AsyncGenerator<StreamChunk> {
  const controller = new AbortController();
  const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
  const chunks = adapter.stream({ ...request, signal })[Symbol.asyncIterator]();
  const secs = Number((limits.idleMs / 1000).toFixed(3));
  const waits = new Waits<StreamChunk>(
    signal,
    limits.idleMs,
    () => new ProviderError(`provider error: stream from ${adapter.baseUrl} was idle for more than ${secs}s`, { kind: "timeout" }),
  );
  let bytes = 0;
  let done = false;
  try {
    for (;;) {
      const next = await waits.next(chunks);
      if (next.done) {
        done = true;
        return;
      }
      const added = chunkBytes(next.value);
      bytes += added;
      churned(added);
      if (limits.maxAnswerBytes > 0 && bytes > limits.maxAnswerBytes) throw tooLarge();
      yield next.value;
    }
  } finally {
    waits.close();
    if (!done) {
      // Stop the provider's request; a generator still inside next() settles once its fetch sees the abort.
      controller.abort();
      chunks.return?.()?.catch(() => {});
    }
  }
}

/**
 * Each next() of a stream's iterator, or a rejection once `idleMs` passes
 * (the idle error) or `signal` aborts — whichever comes first. A next() that
 * never settles cannot hold the caller. One abort listener and one idle timer
 * (re-armed for each wait) serve the whole stream, not one of each per chunk.
 */
class Waits<T> {
  private pending: { resolve: (r: IteratorResult<T>) => void; reject: (err: unknown) => void } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort = () => this.fail(new ProviderError("provider request aborted", { kind: "aborted" }));

  constructor(
    private readonly signal: AbortSignal,
    private readonly idleMs: number,
    private readonly idleError: () => ProviderError,
  ) {
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  next(it: AsyncIterator<T>): Promise<IteratorResult<T>> {
    if (this.signal.aborted) return Promise.reject(new ProviderError("provider request aborted", { kind: "aborted" }));
    return new Promise((resolve, reject) => {
      const wait = { resolve, reject };
      this.pending = wait;
      if (this.idleMs > 0) {
        if (this.timer) this.timer.refresh();
        else this.timer = setTimeout(() => this.fail(this.idleError()), this.idleMs);
      }
      it.next().then(
        (r) => this.settle(wait, () => resolve(r)),
        (err: unknown) => this.settle(wait, () => reject(err)),
      );
    });
  }

  /** Rejects the wait in progress, if any (a timer firing between waits does nothing). */
  private fail(err: unknown): void {
    const wait = this.pending;
    this.pending = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    wait?.reject(err);
  }

  /** A next() settled: it ends its wait unless that wait already failed (idle or aborted). */
  private settle(wait: object, finish: () => void): void {
    if (this.pending !== wait) return;
    this.pending = undefined;
    finish();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.signal.removeEventListener("abort", this.onAbort);
  }
}
