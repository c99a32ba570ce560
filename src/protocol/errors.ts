// Errors that cross the protocol as ErrorMsg{code, message} (docs/protocol.md#errors).

export type ErrorCode = 400 | 404 | 409 | 500;

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
