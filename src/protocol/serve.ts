// Serves one connection: decode frames, dispatch them one after another,
// write each job's replies in order (docs/protocol.md#frames, docs/protocol.md#connection-rules).
import type { FrameChannel } from "./channel.ts";
import { MAX_FRAME_BYTES } from "./frame.ts";
import { decodeClientMessage, encodeServerMessage, type Reply } from "./codec.ts";
import { dispatch, errorReply, type Handlers } from "./server.ts";
import { encodeTextFrame, textOf } from "./text-frames.ts";
import { churned } from "../base/churn.ts";
import type { ClientMessage } from "./gen/crabtalk_pb.ts";

export interface ServeOptions {
  handlers: Handlers;
  /** Aborted on daemon shutdown: running jobs see it through their context. */
  shutdown: AbortSignal;
  onError?: (message: string) => void;
  /** Rewrites the message of every ErrorMsg before it leaves (the daemon hides its home's path). */
  scrubError?: (message: string) => string;
  /**
   * A connection with nothing in flight (no request, no subscription or run
   * streaming, no partial frame) for this long is closed. Unset: never.
   */
  idleTimeoutMs?: number;
  /** Told when a connection is closed for being idle. */
  onIdle?: () => void;
}

/** Requests queued beyond this stop reads until the backlog shrinks. */
const MAX_QUEUED_REQUESTS = 64;
/**
 * Bytes of requests queued beyond this stop reads too: behind a long job (a
 * subscription, a run) a peer could otherwise park 64 maximum-size frames,
 * a gigabyte, in memory (docs/security.md "Connection limits").
 */
const MAX_QUEUED_BYTES = MAX_FRAME_BYTES;

export function serveConnection(channel: FrameChannel, options: ServeOptions): Promise<void> {
  const queue: Array<{ item: ClientMessage | Reply; bytes: number }> = [];
  let queuedBytes = 0;
  const gone = new AbortController();
  const signal = AbortSignal.any([gone.signal, options.shutdown]);
  let wake: (() => void) | undefined;
  let paused = false;

  channel.onClose(() => {
    gone.abort();
    wake?.();
  });
  options.shutdown.addEventListener("abort", () => wake?.(), { once: true });
  channel.onFrame((event) => {
    if (event.kind !== "frame") {
      // Answer, then hang up: the body is never read (docs/protocol.md#frames), or
      // the transport gave up on it (docs/security.md "Connection limits").
      const reply =
        event.kind === "too_large" ? errorReply(400, `frame too large: ${event.length} bytes (max ${MAX_FRAME_BYTES})`) : errorReply(event.code, event.message);
      channel.pauseReading(); // the rest is never read: leave it in the kernel
      void channel.send(encodeServerMessage(reply)).then(
        () => channel.close(),
        () => channel.close(),
      );
      gone.abort();
      return;
    }
    let item: ClientMessage | Reply;
    try {
      item = decodeClientMessage(event.payload);
    } catch (err) {
      item = errorReply(400, `cannot decode ClientMessage: ${(err as Error).message}`);
    }
    queue.push({ item, bytes: event.payload.length });
    queuedBytes += event.payload.length;
    if ((queue.length >= MAX_QUEUED_REQUESTS || queuedBytes >= MAX_QUEUED_BYTES) && !paused) {
      paused = true;
      channel.pauseReading();
    }
    wake?.();
  });

  /** Waits for a frame (or close, or shutdown), or until the connection has been idle too long. */
  const nextWork = async (): Promise<"woken" | "idle"> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await new Promise<"woken" | "idle">((resolve) => {
      wake = () => resolve("woken");
      if (options.idleTimeoutMs !== undefined) timer = setTimeout(() => resolve("idle"), options.idleTimeoutMs);
    });
    clearTimeout(timer);
    wake = undefined;
    return outcome;
  };

  const scrub = options.scrubError ?? ((m: string) => m);
  // A stream's frames before its end may wait for the end of this turn of the
  // event loop, to leave with the next ones; a reply or a stream's end goes at once.
  const write = (reply: Reply) => channel.send(encodeReply(scrubbed(reply, scrub)), !midStream(reply));

  return (async () => {
    while (!signal.aborted || queue.length > 0) {
      if (gone.signal.aborted) break;
      const queued = queue.shift();
      if (!queued) {
        if (options.shutdown.aborted) break;
        if ((await nextWork()) === "idle" && !channel.receiving) {
          options.onIdle?.();
          break;
        }
        continue;
      }
      queuedBytes -= queued.bytes;
      const item = queued.item;
      if (paused && queue.length < MAX_QUEUED_REQUESTS / 2 && queuedBytes < MAX_QUEUED_BYTES / 2) {
        paused = false;
        channel.resumeReading();
      }
      try {
        if ("case" in item) {
          await write(item);
        } else if (options.shutdown.aborted) {
          await write(errorReply(500, "daemon is shutting down"));
        } else {
          for await (const reply of dispatch(item, options.handlers, { signal, shutdown: options.shutdown })) {
            await write(reply);
          }
        }
      } catch (err) {
        if (channel.closed) break;
        options.onError?.(`connection: ${(err as Error).message}`);
      }
    }
  })();
}

/** Error texts, of an ErrorMsg or of a stream's end, as the scrubber has them (no home paths). */
function scrubbed(reply: Reply, scrub: (message: string) => string): Reply {
  if (reply.case === "error") return errorReply(reply.value.code ?? 500, scrub(reply.value.message ?? ""));
  // A stream's frames are made for this one connection: its end may be scrubbed in place.
  const event = reply.case === "stream" ? reply.value.event : undefined;
  if (event?.case === "end" && event.value.error) event.value.error = scrub(event.value.error);
  return reply;
}

function midStream(reply: Reply): boolean {
  return reply.case === "stream" && reply.value.event?.case !== "end";
}

/** A frame above the maximum is never sent; the client gets an ErrorMsg instead. */
function encodeReply(reply: Reply): Uint8Array {
  const text = textOf(reply);
  const bytes = text ? encodeTextFrame(text.field, text.content) : encodeServerMessage(reply);
  if (text) churned(bytes.length);
  if (bytes.length <= MAX_FRAME_BYTES) return bytes;
  return encodeServerMessage(errorReply(500, `reply too large: ${bytes.length} bytes (max ${MAX_FRAME_BYTES})`));
}
