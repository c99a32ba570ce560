// Errors that cross the protocol as ErrorMsg{code, message} (docs/protocol.md#errors).

export type ErrorCode = 400 | 403 | 404 | 409 | 500 | 503;

export class ProtocolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ProtocolError(400, message);
export const notFound = (message: string) => new ProtocolError(404, message);
/** The request cannot be served in the state things are in (docs/protocol.md "Errors"). */
export const conflict = (message: string) => new ProtocolError(409, message);
export const internal = (message: string) => new ProtocolError(500, message);
/** Outside what the caller may do: a remote token's scope (docs/remote.md). */
export const forbidden = (message: string) => new ProtocolError(403, message);
/** Needs something that is off (docs/protocol.md "Errors"). */
export const unavailable = (message: string) => new ProtocolError(503, message);
