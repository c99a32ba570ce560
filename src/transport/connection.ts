// One framed byte stream over a Bun socket (UDS or TCP): frames in, frames out,
// bounded outgoing buffering with back-pressure. Knows nothing of protobuf.
import type { Socket } from "bun";
import { FrameDecoder, encodeFrame, type FrameEvent } from "../protocol/frame.ts";
import type { FrameLimits } from "./frame-budget.ts";

/** Outgoing bytes we hold in user space before `send` makes callers wait. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** Frames held for one turn of the event loop beyond this are written at once. */
const CORK_BYTES = 64 * 1024;
/** How long a closing connection waits for the peer to hang up. */
const LINGER_MS = 2000;

type Waiter = () => void;

export class FramedConnection {
  private readonly decoder = new FrameDecoder();
  private outgoing: Uint8Array[] = [];
  private outgoingBytes = 0;
  /**
   * Frames of this turn of the event loop, written together after it: a run's
   * last chunk and its end (or a burst of chunks) cost one write, not one each.
   */
  private corked: Uint8Array[] = [];
  private corkedBytes = 0;
  private writable: Waiter[] = [];
  private flushed: Waiter[] = [];
  private frameListener?: (event: FrameEvent) => void;
  /** Frames that arrived before anyone listened: kept, handed over in order. */
  private early: FrameEvent[] = [];
  private closeListeners: Array<() => void> = [];
  private isClosed = false;
  private discardInput = false;
  private limits?: FrameLimits;
  /** Bytes of a partial frame counted against the shared budget. */
  private held = 0;
  private frameTimer?: ReturnType<typeof setTimeout>;

  /** `cork`: frames of one turn of the event loop are written together, after it (the daemon's side). */
  constructor(
    private readonly socket: Socket<unknown>,
    private readonly cork = false,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** What the socket tells about its peer: its fd (to ask the kernel) and the TCP ports. */
  get peerSocket(): { fd?: number; remotePort?: number; localPort?: number } {
    const s = this.socket as Socket<unknown> & { fd?: number };
    return { fd: s.fd, remotePort: s.remotePort || undefined, localPort: s.localPort || undefined };
  }

  /** Receives every decoded frame (or the single oversize notice) in order. */
  onFrame(listener: (event: FrameEvent) => void): void {
    this.frameListener = listener;
    for (const event of this.early.splice(0)) {
      listener(event);
      if (this.isClosed) return;
    }
  }

  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /** Stop reading from the peer (read-side back-pressure); a partial frame's clock stops too, the wait is ours. */
  pauseReading(): void {
    this.socket.pause();
    this.stopFrameTimer();
  }

  resumeReading(): void {
    this.socket.resume();
    if (this.limits && this.held > 0 && !this.discardInput) this.startFrameTimer(this.limits.timeoutMs);
  }

  /** A partial frame must arrive within `timeoutMs` and fit the shared budget, or the connection gives up on it. */
  limitFrames(limits: FrameLimits): void {
    this.limits = limits;
  }

  /** True while part of a frame has arrived and the rest has not. */
  get receiving(): boolean {
    return this.decoder.pendingBytes > 0;
  }

  /**
   * Bun hands us a fresh buffer per callback, so a chunk is kept as it is:
   * copying it would double the memory a partial frame costs until the next
   * collection.
   */
  handleData(chunk: Uint8Array): void {
    if (this.discardInput || this.isClosed) return;
    const events = this.decoder.push(chunk);
    if (!this.account(events.some((e) => e.kind === "frame"))) return;
    for (const event of events) {
      this.deliver(event);
      if (this.isClosed) return;
    }
  }

  /** To the listener, or kept for it when none listens yet. */
  private deliver(event: FrameEvent): void {
    if (this.frameListener) this.frameListener(event);
    else this.early.push(event);
  }

  /** Books the partial frame against the limits; false when it was abandoned. */
  private account(completedOne: boolean): boolean {
    const limits = this.limits;
    if (!limits) return true;
    const pending = this.decoder.pendingBytes;
    if (!limits.budget.resize(this.held, pending)) {
      this.abandon(503, `daemon busy: partly received frames hold ${limits.budget.maxBytes} bytes, the most it buffers; send again later`);
      return false;
    }
    this.held = pending;
    if (pending === 0) this.stopFrameTimer();
    else if (completedOne || this.frameTimer === undefined) this.startFrameTimer(limits.timeoutMs);
    return true;
  }

  private startFrameTimer(ms: number): void {
    this.stopFrameTimer();
    this.frameTimer = setTimeout(() => this.abandon(408, `frame not complete within ${ms / 1000} s of its first byte`), ms);
    this.frameTimer.unref?.();
  }

  private stopFrameTimer(): void {
    clearTimeout(this.frameTimer);
    this.frameTimer = undefined;
  }

  /** Gives up on the partial frame: its memory goes back at once, input is ignored from now on, the peer is told. */
  private abandon(code: number, message: string): void {
    this.stopFrameTimer();
    this.decoder.abandon();
    this.releaseHeld();
    this.discardInput = true;
    // The rest stays in the kernel: reading it only to throw it away costs memory.
    this.socket.pause();
    this.deliver({ kind: "abandoned", code, message });
  }

  private releaseHeld(): void {
    if (this.held === 0) return;
    this.limits?.budget.release(this.held);
    this.held = 0;
  }

  /**
   * Queues one frame: written at once, or (corked, unless `flush`) with the
   * other frames of this turn of the event loop once it ends; a flushed frame
   * takes the held ones with it. Resolves when the frame is
   * accepted and the user-space backlog is below the high-water mark, so a
   * slow reader makes the producer wait instead of growing memory. Rejects
   * once closed.
   */
  async send(payload: Uint8Array, flush = false): Promise<void> {
    if (this.isClosed) throw new ConnectionClosedError();
    const frame = encodeFrame(payload);
    if (this.cork && this.outgoing.length === 0) {
      this.corked.push(frame);
      this.corkedBytes += frame.length;
      if (flush || this.corkedBytes >= CORK_BYTES) this.uncork();
      else if (this.corked.length === 1) setImmediate(this.uncork);
      return;
    }
    if (this.outgoing.length === 0) {
      const written = this.socket.write(frame);
      if (written < 0) {
        this.handleClose();
        throw new ConnectionClosedError();
      }
      if (written === frame.length) return;
      this.enqueue(frame.subarray(written));
    } else {
      this.enqueue(frame);
    }
    while (this.outgoingBytes > HIGH_WATER_BYTES && !this.isClosed) {
      await new Promise<void>((resolve) => this.writable.push(resolve));
    }
    if (this.isClosed) throw new ConnectionClosedError();
  }

  /** Hands the held frames to the kernel in one write; what it refuses waits for the drain. */
  private readonly uncork = (): void => {
    if (this.isClosed || this.corked.length === 0) return;
    const bytes = this.corked.length === 1 ? this.corked[0] : Buffer.concat(this.corked, this.corkedBytes);
    this.corked = [];
    this.corkedBytes = 0;
    const written = this.socket.write(bytes);
    if (written < 0) return this.handleClose();
    if (written < bytes.length) this.enqueue(bytes.subarray(written));
  };

  /** Called by the socket's drain handler: push out what the kernel refused earlier. */
  handleDrain(): void {
    while (this.outgoing.length > 0) {
      const head = this.outgoing[0];
      const written = this.socket.write(head);
      if (written < 0) {
        this.handleClose();
        return;
      }
      this.outgoingBytes -= Math.max(written, 0);
      if (written < head.length) {
        this.outgoing[0] = head.subarray(written);
        break;
      }
      this.outgoing.shift();
    }
    if (this.outgoingBytes <= HIGH_WATER_BYTES) wake(this.writable);
    if (this.outgoing.length === 0) wake(this.flushed);
  }

  /**
   * Waits for queued frames to leave, then sends FIN and keeps discarding
   * input until the peer hangs up (or LINGER_MS passes). Closing outright
   * with unread input would reset the connection and could destroy our last
   * frame (e.g. the error that explains why we hang up). Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.uncork();
    if (this.outgoing.length > 0) {
      await Promise.race([new Promise<void>((resolve) => this.flushed.push(resolve)), Bun.sleep(LINGER_MS)]);
    }
    this.discardInput = true;
    this.socket.shutdown();
    const timer = setTimeout(() => this.socket.terminate(), LINGER_MS);
    timer.unref?.();
    this.handleClose();
  }

  /** Drops the connection at once, discarding anything queued. */
  abort(): void {
    this.socket.terminate();
    this.handleClose();
  }

  handleClose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.stopFrameTimer();
    this.decoder.abandon();
    this.releaseHeld();
    this.outgoing = [];
    this.outgoingBytes = 0;
    this.corked = [];
    this.corkedBytes = 0;
    wake(this.writable);
    wake(this.flushed);
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private enqueue(bytes: Uint8Array): void {
    this.outgoing.push(bytes);
    this.outgoingBytes += bytes.length;
  }
}

function wake(waiters: Waiter[]): void {
  for (const resume of waiters.splice(0)) resume();
}

export class ConnectionClosedError extends Error {
  constructor() {
    super("connection closed");
  }
}
