// A connection as the protocol sees it: frames in, frames out. The daemon
// serves one (serve.ts), a client talks over one (client.ts); a socket
// (src/transport/connection.ts) or a WebSocket (websocket-channel.ts,
// src/remote/ws-channel.ts) provides it. Browser-safe: no Node or Bun types.
import type { FrameEvent } from "./frame.ts";

/** What serving needs of a connection; FramedConnection provides it. */
export interface FrameChannel {
  readonly closed: boolean;
  onFrame(listener: (event: FrameEvent) => void): void;
  onClose(listener: () => void): void;
  /** `flush`: no reason to hold this frame back to write it with later ones. */
  send(payload: Uint8Array, flush?: boolean): Promise<void>;
  close(): Promise<void>;
  pauseReading(): void;
  resumeReading(): void;
  /** True while part of a frame has arrived (the connection is not idle then). */
  readonly receiving?: boolean;
}
