// UDS and TCP listeners: accept connections and hand each over as a FramedConnection.
import type { Socket } from "bun";
import { attachConnection, framedEvents, framedHandlers, type ConnectionSlot, type MaybeSlot } from "./handlers.ts";
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

/**
 * Binds loopback TCP; throws (EADDRINUSE etc.) when the port cannot be bound.
 * Nothing is built for a connection before its peer is admitted: a refused one
 * (a flood from another OS user) costs the lookup and the reset, no more.
 */
export function listenTcp(hostname: string, port: number, onConnection: ConnectionHandler, admit: TcpAdmission = () => true): Listener {
  const serve = (socket: Socket<MaybeSlot>) => {
    socket.setNoDelay(true);
    const conn = attachConnection(socket, true);
    onConnection(conn);
    return conn;
  };
  const server = Bun.listen<MaybeSlot>({
    hostname,
    port,
    socket: {
      ...framedEvents,
      open(socket) {
        const { localAddress, localPort, remoteAddress, remotePort } = socket;
        // A peer that reset before it was even reported open has no address left: nobody to serve.
        if (!remoteAddress || !localAddress) return void socket.terminate();
        const verdict = admit({ localAddress, localPort, remoteAddress, remotePort });
        if (verdict === true) return void serve(socket);
        if (verdict === false) return void socket.terminate();
        // Looked up in the background: not a byte is read meanwhile.
        const slot: ConnectionSlot = {};
        socket.data = slot;
        socket.pause();
        verdict.then(
          (admitted) => {
            if (slot.closed) return;
            if (!admitted) return void socket.terminate();
            const conn = serve(socket);
            if (!conn.closed) conn.resumeReading();
          },
          () => void socket.terminate(),
        );
      },
    },
  });
  return { port: server.port, stop: (force = false) => server.stop(force) };
}
