// UDS and TCP listeners: accept connections and hand each over as a FramedConnection.
import { framedHandlers, type ConnectionSlot } from "./handlers.ts";
import type { FramedConnection } from "./connection.ts";

export interface Listener {
  /** The bound TCP port (undefined for a Unix socket). */
  readonly port?: number;
  /** Stops accepting; `force` also drops the open connections. */
  stop(force?: boolean): void;
}

export type ConnectionHandler = (conn: FramedConnection) => void;

export function listenUnix(path: string, onConnection: ConnectionHandler): Listener {
  const server = Bun.listen<ConnectionSlot>({
    unix: path,
    socket: framedHandlers((conn) => onConnection(conn)),
    data: {},
  });
  return { stop: (force = false) => server.stop(force) };
}

/** Binds loopback TCP; throws (EADDRINUSE etc.) when the port cannot be bound. */
export function listenTcp(hostname: string, port: number, onConnection: ConnectionHandler): Listener {
  const server = Bun.listen<ConnectionSlot>({
    hostname,
    port,
    socket: framedHandlers((conn, socket) => {
      socket.setNoDelay(true);
      onConnection(conn);
    }),
    data: {},
  });
  return { port: server.port, stop: (force = false) => server.stop(force) };
}
