// Serving the daemon's connections within `[system.limits]`: a cap on how many
// are open, on how long a frame may take and how much partial frames may hold
// together, and on how long a connection may sit idle (docs/security.md "Connection limits").
import { encodeServerMessage } from "../protocol/codec.ts";
import { errorReply, type Handlers } from "../protocol/server.ts";
import { serveConnection } from "../protocol/serve.ts";
import { FrameBudget } from "../transport/frame-budget.ts";
import type { FrameChannel } from "../protocol/channel.ts";
import type { FrameLimits } from "../transport/frame-budget.ts";
import type { LimitsConfig } from "../config/schema.ts";
import type { Logger } from "./log.ts";

export interface ConnectionServerOptions {
  shutdown: AbortSignal;
  limits: LimitsConfig;
  log: Logger;
  scrubError: (message: string) => string;
}

/** A socket's framed connection, or a remote WebSocket (src/remote/ws-channel.ts). */
export type ServedChannel = FrameChannel & { limitFrames(limits: FrameLimits): void };

export interface ConnectionServer {
  /** Serves a new connection with `handlers`; refused with a 503 when the cap is reached. */
  accept(conn: ServedChannel, handlers: Handlers): void;
  /** Settles when every connection being served has finished. */
  drained(): Promise<unknown>;
}

/** Abandoned partial frames can be megabytes each: collect soon after, at most every 50 ms. */
let collection: ReturnType<typeof setTimeout> | undefined;
function collectSoon(bytes: number): void {
  if (bytes < 1024 * 1024 || collection !== undefined) return;
  collection = setTimeout(() => {
    collection = undefined;
    Bun.gc(true);
  }, 50);
  collection.unref?.();
}

export function connectionServer(options: ConnectionServerOptions): ConnectionServer {
  const { limits, log } = options;
  const frames = { budget: new FrameBudget(limits.frame_buffer_bytes, collectSoon), timeoutMs: limits.frame_timeout * 1000 };
  const open = new Set<Promise<void>>();
  let refusedSinceLog = 0;
  return {
    accept(conn, handlers) {
      if (open.size >= limits.max_connections) {
        if (refusedSinceLog++ === 0) log.warn("refusing connections: too many open", { max: limits.max_connections });
        const message = `too many connections: the daemon serves at most ${limits.max_connections} at once ([system.limits] max_connections)`;
        conn.pauseReading(); // whatever it sends stays in the kernel, not in our memory
        void conn.send(encodeServerMessage(errorReply(503, message))).then(
          () => conn.close(),
          () => conn.close(),
        );
        return;
      }
      refusedSinceLog = 0;
      conn.limitFrames(frames);
      const served = serveConnection(conn, {
        handlers,
        shutdown: options.shutdown,
        onError: (m) => log.debug(m),
        scrubError: options.scrubError,
        idleTimeoutMs: limits.idle_timeout * 1000,
        onIdle: () => log.debug("closed an idle connection", { idle_timeout: limits.idle_timeout }),
      }).finally(() => {
        open.delete(served);
        void conn.close();
      });
      open.add(served);
    },
    drained: () => Promise.allSettled([...open]),
  };
}
