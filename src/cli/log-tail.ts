// Reading the end of daemon.log and following it across rotations
// (daemon.log is renamed to daemon.log.1 and a new one begun).
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from "node:fs";

const CHUNK = 64 * 1024;

/** The last `n` lines of a file before byte `end` (default: its end), reading backwards in chunks. */
export function lastLines(path: string, n: number, end?: number): string[] {
  if (n <= 0 || !existsSync(path)) return [];
  const fd = openSync(path, "r");
  try {
    let pos = Math.min(end ?? Infinity, fstatSync(fd).size);
    let text = "";
    while (pos > 0) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, pos);
      text = buf.toString("utf8") + text;
      // n + 1 newlines: the first line in `text` may be cut.
      if ((text.match(/\n/g)?.length ?? 0) > n) break;
    }
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.slice(-n);
  } finally {
    closeSync(fd);
  }
}

/** The size of a file now (0 when it does not exist): where following starts. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Follows `path` from byte `from`, calling `write` with new text, until
 * `signal` aborts. When the file is replaced (rotation) the rest of the old
 * one is read first, then the new one from its start.
 */
export async function follow(path: string, write: (text: string) => void, signal: AbortSignal, from: number, pollMs = 200): Promise<void> {
  let fd: number | undefined;
  let ino = -1;
  let pos = 0;
  const open = (start: number) => {
    if (!existsSync(path)) return;
    fd = openSync(path, "r");
    const st = fstatSync(fd);
    ino = st.ino;
    pos = Math.min(start, st.size);
  };
  const drain = () => {
    if (fd === undefined) return;
    const buf = Buffer.alloc(CHUNK);
    for (;;) {
      const got = readSync(fd, buf, 0, CHUNK, pos);
      if (got <= 0) return;
      pos += got;
      write(buf.subarray(0, got).toString("utf8"));
    }
  };
  open(from);
  while (!signal.aborted) {
    drain();
    let current: number | undefined;
    try {
      current = statSync(path).ino;
    } catch {
      current = undefined;
    }
    if (current !== ino) {
      // Lines written to the old file between the read above and its rename are read before it is let go.
      drain();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      open(0);
      continue;
    }
    // Truncated in place: start again from the top.
    if (fd !== undefined && fstatSync(fd).size < pos) pos = 0;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  if (fd !== undefined) closeSync(fd);
}
