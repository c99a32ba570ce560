// A reader that went away (`crabtalk send --json hi | head -1`): the next
// write to stdout fails with EPIPE. That is how a pipeline says "enough", not
// an error, so the command ends at once, quietly, with status 0 (as if it had
// printed everything), never with "EPIPE: broken pipe" on stderr.

export function isClosedPipe(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "EPIPE";
}

/** Ends the process for a closed stdout: nothing more can be shown to anyone. */
export function endForClosedPipe(): never {
  process.exit(0);
}

/**
 * The full CLI's one handler: a write to a closed stdout surfaces as an
 * 'error' event on process.stdout (or, from some writes, as a throw that
 * reaches the command's catch, which calls isClosedPipe).
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on("error", (err: unknown) => {
    if (isClosedPipe(err)) endForClosedPipe();
    throw err;
  });
}
