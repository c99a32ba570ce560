// stdout and stderr for the fast CLI path, written through Bun's file sinks:
// touching process.stdout/stderr would load Node's stream layer (≈12 ms, 10 MiB).
import { isatty } from "node:tty";
import type { FileSink } from "bun";

export interface Sink {
  readonly isTTY: boolean;
  write(s: string): void;
  /** Resolves once everything written has left the process. */
  flush(): Promise<void>;
}

function sink(writer: FileSink, fd: number): Sink {
  return {
    isTTY: isatty(fd),
    write(s: string) {
      writer.write(s);
      void writer.flush();
    },
    async flush() {
      await writer.flush();
    },
  };
}

export function stdio(): { stdout: Sink; stderr: Sink } {
  return { stdout: sink(Bun.stdout.writer(), 1), stderr: sink(Bun.stderr.writer(), 2) };
}
