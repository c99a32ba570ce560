// stdout and stderr for the fast CLI path, written through Bun's file sinks:
// touching process.stdout/stderr would load Node's stream layer (≈12 ms, 10 MiB).
import type { FileSink } from "bun";

export interface Sink {
  readonly isTTY: boolean;
  write(s: string): void;
  /** Resolves once everything written has left the process. */
  flush(): Promise<void>;
}

function sink(writer: FileSink, isTTY: boolean): Sink {
  return {
    isTTY,
    write(s: string) {
      writer.write(s);
      void writer.flush();
    },
    async flush() {
      await writer.flush();
    },
  };
}

/** The sinks, given whether stdout and stderr are terminals (isTerminal). */
export function stdio([out, err]: [boolean, boolean]): { stdout: Sink; stderr: Sink } {
  return { stdout: sink(Bun.stdout.writer(), out), stderr: sink(Bun.stderr.writer(), err) };
}
