// Awaits a request that must fail with an ErrorMsg, and returns that error.
import { expect } from "bun:test";
import { DaemonError } from "../../src/protocol/client.ts";

export async function daemonError(p: Promise<unknown>): Promise<DaemonError> {
  const err = await p.then(
    () => new Error("expected the daemon to refuse"),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DaemonError);
  return err as DaemonError;
}
