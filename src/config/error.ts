/**
 * A configuration problem a user can act on. `code` follows the protocol's
 * error semantics (docs/protocol.md#errors): 400 for a bad document or request, 500 when
 * the daemon itself failed (e.g. could not read or write a file).
 */
export class ConfigError extends Error {
  readonly code: 400 | 500;

  constructor(message: string, code: 400 | 500 = 400) {
    super(message);
    this.name = "ConfigError";
    this.code = code;
  }
}
