// Bun socket callbacks that drive a FramedConnection; shared by listeners and connectors.
import type { Socket, SocketHandler } from "bun";
import { FramedConnection } from "./connection.ts";

export interface ConnectionSlot {
  conn?: FramedConnection;
  /** Closed before a connection was attached (a TCP peer hung up while being looked up). */
  closed?: boolean;
}

/** `cork`: frames of one turn of the event loop are written together (the daemon's side). */
export function framedHandlers(
  onOpen: (conn: FramedConnection, socket: Socket<ConnectionSlot>) => void,
  options: { cork?: boolean } = {},
): SocketHandler<ConnectionSlot> {
  return {
    ...framedEvents,
    open(socket) {
      onOpen(attachConnection(socket, options.cork), socket);
    },
  };
}

/** Wraps an open socket in a FramedConnection that its events now drive. */
export function attachConnection(socket: Socket<MaybeSlot>, cork = false): FramedConnection {
  const conn = new FramedConnection(socket as Socket<unknown>, cork);
  socket.data = { conn };
  return conn;
}

/** A socket's slot: none on a TCP socket until its peer is admitted. */
export type MaybeSlot = ConnectionSlot | undefined;

function closed(socket: Socket<MaybeSlot>): void {
  const slot = socket.data;
  if (slot?.conn) slot.conn.handleClose();
  else if (slot) slot.closed = true;
}

/** Every event but `open`: to the attached connection, if any. */
export const framedEvents: Omit<SocketHandler<MaybeSlot>, "open"> = {
  data(socket, chunk) {
    socket.data?.conn?.handleData(chunk);
  },
  drain(socket) {
    socket.data?.conn?.handleDrain();
  },
  close: closed,
  error: closed,
};
