// Bun socket callbacks that drive a FramedConnection; shared by listeners and connectors.
import type { Socket, SocketHandler } from "bun";
import { FramedConnection } from "./connection.ts";

export interface ConnectionSlot {
  conn?: FramedConnection;
}

/** `cork`: frames of one turn of the event loop are written together (the daemon's side). */
export function framedHandlers(
  onOpen: (conn: FramedConnection, socket: Socket<ConnectionSlot>) => void,
  options: { cork?: boolean } = {},
): SocketHandler<ConnectionSlot> {
  return {
    open(socket) {
      const conn = new FramedConnection(socket as Socket<unknown>, options.cork);
      socket.data = { conn };
      onOpen(conn, socket);
    },
    data(socket, chunk) {
      socket.data.conn?.handleData(chunk);
    },
    drain(socket) {
      socket.data.conn?.handleDrain();
    },
    close(socket) {
      socket.data.conn?.handleClose();
    },
    error(socket) {
      socket.data.conn?.handleClose();
    },
  };
}
