// Failures as the JSON-RPC errors ACP names: the daemon's own message in an
// internal error (-32603), not the library's generic "Internal error".
import { RequestError } from "@agentclientprotocol/sdk";
import { DaemonError } from "../../protocol/client.ts";

export function asRequestError(err: unknown): RequestError {
  if (err instanceof RequestError) return err;
  if (err instanceof DaemonError) return new RequestError(-32603, err.message, { code: err.code });
  return new RequestError(-32603, err instanceof Error ? err.message : String(err));
}

/** Runs a handler's body, turning any failure into a RequestError. */
export async function answering<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asRequestError(err);
  }
}
