// UDS and TCP listeners: accept connections and hand each over as a FramedConnection.
import { framedHandlers, type ConnectionSlot } from "./handlers.ts";
import type { FramedConnection } from "./connection.ts";
import type { TcpPair } from "./peer-uid.ts";

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
    socket: framedHandlers((conn) => onConnection(conn), { cork: true }),
    data: {},
  });
  return { stop: (force = false) => server.stop(force) };
}

/** Decides whether a TCP peer may talk to us; refused ones are dropped before any byte is read. */
export type TcpAdmission = (pair: TcpPair) => boolean | Promise<boolean>;

/** Binds loopback TCP; throws (EADDRINUSE etc.) when the port cannot be bound. */
export function listenTcp(
  hostname: string,
  port: number,
  onConnection: ConnectionHandler,
  admit: TcpAdmission = () => true,
): Listener {
  const server = Bun.listen<ConnectionSlot>({
    hostname,
    port,
    socket: framedHandlers((conn, socket) => {
      const { localAddress, localPort, remoteAddress, remotePort } = socket;
      socket.setNoDelay(true);
      // Not a byte is read before the peer is admitted.
      conn.pauseReading();
      void Promise.resolve(admit({ localAddress, localPort, remoteAddress, remotePort })).then(
        (admitted) => {
          if (!admitted || conn.closed) return conn.abort();
          onConnection(conn);
          if (!conn.closed) conn.resumeReading();
        },
        () => conn.abort(),
      );
    }, { cork: true }),
    data: {},
  });
  return { port: server.port, stop: (force = false) => server.stop(force) };
}
