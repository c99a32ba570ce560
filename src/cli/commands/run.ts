// Shared plumbing for command actions: report failures as one line on stderr
// with a non-zero exit instead of a stack trace.
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

/** The message a person reads; the protocol's code (e.g. 404) is for programs, not shown. */
function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
