// One protocol connection over a WebSocket (docs/remote.md#the-wire): each
// binary message is one ClientMessage payload, each ServerMessage leaves as one
// binary message, no length prefix. Text and oversize messages break the
// protocol: closed with 1008. Sending waits while the socket's backlog is
// above a high-water mark, so a slow reader holds the producer, not memory.
import type { ServerWebSocket } from "bun";
import type { FrameEvent } from "../protocol/frame.ts";
import { MAX_FRAME_BYTES } from "../protocol/frame.ts";
import type { FrameChannel } from "../protocol/channel.ts";
import { ConnectionClosedError } from "../transport/connection.ts";
import type { FrameLimits } from "../transport/frame-budget.ts";

/** Bytes queued in the socket beyond which `send` waits for it to drain. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** Messages that arrive before the daemon serves the connection; past this, reading pauses. */
const EARLY_MESSAGES = 8;
export const POLICY_VIOLATION = 1008;

export class WebSocketChannel<T> implements FrameChannel {
  private isClosed = false;
  private frameListener?: (event: FrameEvent) => void;
  private early: FrameEvent[] = [];
  private closeListeners: Array<() => void> = [];
  private drainWaiters: Array<() => void> = [];

  constructor(private readonly ws: ServerWebSocket<T>) {}

  get closed(): boolean {
    return this.isClosed;
  }

  onFrame(listener: (event: FrameEvent) => void): void {
    this.frameListener = listener;
    for (const event of this.early.splice(0)) listener(event);
    if (!this.isClosed && this.ws.isPaused) this.ws.resume();
  }

  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  pauseReading(): void {
    if (!this.isClosed) this.ws.pause();
  }

  resumeReading(): void {
    if (!this.isClosed) this.ws.resume();
  }

  /** A message arrives whole (the WebSocket layer holds a partial one, up to its own maximum): nothing to time or budget. */
  limitFrames(_limits: FrameLimits): void {}

  readonly receiving = false;

  handleMessage(message: string | Uint8Array): void {
    if (this.isClosed) return;
    if (typeof message === "string") return this.refuse("text messages are not part of the protocol: send each frame as one binary message");
    if (message.length > MAX_FRAME_BYTES) return this.refuse(`message of ${message.length} bytes: the most is ${MAX_FRAME_BYTES}`);
    const event: FrameEvent = { kind: "frame", payload: message };
    if (this.frameListener) return this.frameListener(event);
    this.early.push(event);
    if (this.early.length >= EARLY_MESSAGES) this.ws.pause();
  }

  async send(payload: Uint8Array, _flush?: boolean): Promise<void> {
    if (this.isClosed) throw new ConnectionClosedError();
    // 0: dropped (the socket is going); -1: queued behind earlier data.
    if (this.ws.send(payload, false) === 0) {
      this.handleClose();
      throw new ConnectionClosedError();
    }
    while (!this.isClosed && this.ws.getBufferedAmount() > HIGH_WATER_BYTES) {
      await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    }
    if (this.isClosed) throw new ConnectionClosedError();
  }

  handleDrain(): void {
    if (this.ws.getBufferedAmount() <= HIGH_WATER_BYTES) wake(this.drainWaiters);
  }

  /** Closes normally; queued messages go first. */
  async close(): Promise<void> {
    this.closeWith(1000, "");
  }

  /** Closes with a code and a short reason the peer sees (not a secret). */
  closeWith(code: number, reason: string): void {
    if (this.isClosed) return;
    this.ws.close(code, reason.slice(0, 120));
    this.handleClose();
  }

  handleClose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.early = [];
    wake(this.drainWaiters);
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private refuse(reason: string): void {
    this.closeWith(POLICY_VIOLATION, reason);
  }
}

function wake(waiters: Array<() => void>): void {
  for (const resume of waiters.splice(0)) resume();
}
