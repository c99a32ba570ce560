// The protocol over a WebSocket (docs/remote.md, "The wire"): each binary
// message is exactly one frame's payload, without the 4-byte length prefix.
// Works on the standard WebSocket of a browser (the web console) and of Bun,
// so the typed Client of client.ts runs unchanged over either.
import { MAX_FRAME_BYTES, type FrameEvent } from "./frame.ts";
import type { FrameChannel } from "./channel.ts";

/** RFC 6455 close code for a message that breaks the endpoint's policy (text, or too large). */
export const POLICY_VIOLATION = 1008;

/** What one received WebSocket message is as a frame: text is never a frame, nor is anything over the frame limit. */
export function frameOfMessage(data: ArrayBuffer | Uint8Array | string): FrameEvent {
  if (typeof data === "string") return { kind: "abandoned", code: 400, message: "text WebSocket message: frames are binary messages" };
  const payload = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (payload.length > MAX_FRAME_BYTES) return { kind: "too_large", length: payload.length };
  return { kind: "frame", payload };
}

/** The slice of the standard WebSocket this channel uses (browsers' and Bun's alike). */
export interface StandardWebSocket {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: "open" | "error", listener: () => void): void;
}

const OPEN = 1;

export class WebSocketChannel implements FrameChannel {
  private frameListener?: (event: FrameEvent) => void;
  /** Frames that came before anyone listened, or while reading is paused: handed over in order. */
  private held: FrameEvent[] = [];
  private paused = false;
  private closeListeners: Array<() => void> = [];
  private isClosed = false;
  private readonly gone: Promise<void>;
  /** How the socket closed (code and reason), once it has. */
  closeCode?: number;
  closeReason?: string;

  constructor(private readonly socket: StandardWebSocket) {
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", (event) => this.receive(frameOfMessage(event.data as ArrayBuffer | string)));
    this.gone = new Promise((resolve) => {
      socket.addEventListener("close", (event) => {
        this.closeCode = event.code;
        this.closeReason = event.reason;
        this.markClosed();
        resolve();
      });
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  onFrame(listener: (event: FrameEvent) => void): void {
    this.frameListener = listener;
    this.drain();
  }

  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /** The browser buffers what it cannot write yet; there is nothing to hold back here. */
  async send(payload: Uint8Array, _flush?: boolean): Promise<void> {
    if (this.isClosed || this.socket.readyState !== OPEN) throw new Error("connection closed");
    this.socket.send(payload);
  }

  async close(): Promise<void> {
    if (!this.isClosed) this.socket.close(1000);
    await this.gone;
  }

  /** A WebSocket cannot stop the peer from sending: frames are held here until reading resumes. */
  pauseReading(): void {
    this.paused = true;
  }

  resumeReading(): void {
    this.paused = false;
    this.drain();
  }

  private receive(event: FrameEvent): void {
    this.held.push(event);
    this.drain();
  }

  private drain(): void {
    while (this.frameListener && !this.paused && this.held.length > 0) this.frameListener(this.held.shift()!);
  }

  private markClosed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    // Frames already received are still handed over before the close is told.
    this.drain();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

/** Resolves once a new socket is open; a refused upgrade (or any close before open) rejects. */
export function openWebSocketChannel(socket: StandardWebSocket): Promise<WebSocketChannel> {
  const channel = new WebSocketChannel(socket);
  return new Promise((resolve, reject) => {
    socket.addEventListener("open", () => resolve(channel));
    channel.onClose(() => reject(new Error(`WebSocket closed before it opened (code ${channel.closeCode ?? "none"})`)));
  });
}
