// The error a client raises for an ErrorMsg reply (docs/protocol.md#errors); apart
// from the client so code that only classifies errors loads no protocol code.

/** An ErrorMsg from the daemon. */
export class DaemonError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
