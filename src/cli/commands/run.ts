// Shared plumbing for command actions: report failures as one line on stderr
// with a non-zero exit instead of a stack trace.
import { DaemonError } from "../../protocol/daemon-error.ts";
import { endForClosedPipe, isClosedPipe } from "../closed-pipe.ts";
import { UnreachableError } from "../endpoint.ts";

export function action<A extends unknown[]>(fn: (...args: A) => Promise<void | number>) {
  return async (...args: A): Promise<void> => {
    try {
      const code = await fn(...args);
      if (typeof code === "number") process.exitCode = code;
    } catch (err) {
      if (isClosedPipe(err)) endForClosedPipe();
      process.stderr.write(`crabtalk: ${describe(err)}\n`);
      process.exitCode = err instanceof UnreachableError ? 2 : 1;
    }
  };
}

function describe(err: unknown): string {
  if (err instanceof DaemonError) return `${err.message} (error ${err.code})`;
  return err instanceof Error ? err.message : String(err);
}
