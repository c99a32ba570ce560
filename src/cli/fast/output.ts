// stdout and stderr for the fast CLI path, written through Bun's file sinks:
// touching process.stdout/stderr would load Node's stream layer (≈12 ms, 10 MiB).
import type { FileSink } from "bun";
import { endForClosedPipe, isClosedPipe } from "../closed-pipe.ts";

export interface Sink {
  readonly isTTY: boolean;
  /** The terminal's width when it is one (answers wrap to it), else undefined. */
  readonly columns?: number;
  write(s: string): void;
  /** Resolves once everything written has left the process. */
  flush(): Promise<void>;
}

function sink(writer: FileSink, isTTY: boolean, columns: () => number | undefined): Sink {
  // A reader that went away (`… | head -1`) ends the command quietly (closed-pipe.ts).
  const failed = (err: unknown): void => {
    if (isClosedPipe(err)) endForClosedPipe();
    throw err;
  };
  return {
    isTTY,
    // Asked only at a terminal, where loading Node's tty stream costs nothing anyone waits for.
    get columns() {
      return isTTY ? columns() : undefined;
    },
    write(s: string) {
      try {
        writer.write(s);
        void Promise.resolve(writer.flush()).catch(failed);
      } catch (err) {
        failed(err);
      }
    },
    async flush() {
      await Promise.resolve(writer.flush()).catch(failed);
    },
  };
}

/** The sinks, given whether stdout and stderr are terminals (isTerminal). */
export function stdio([out, err]: [boolean, boolean]): { stdout: Sink; stderr: Sink } {
  return {
    stdout: sink(Bun.stdout.writer(), out, () => process.stdout.columns),
    stderr: sink(Bun.stderr.writer(), err, () => process.stderr.columns),
  };
}
