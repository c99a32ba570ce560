// Reading a session file's lines without holding the file: its first line,
// its newest bytes, or every line one chunk at a time. A session file can
// grow to hundreds of megabytes (docs/sessions.md#large-conversations); the
// daemon reads what it needs of it and never the whole file at once.
import type { FileHandle } from "node:fs/promises";
import { openRegularStat } from "./regular-file.ts";

const NEWLINE = 0x0a;
const CHUNK = 1024 * 1024;
/** A meta line is small; one longer than this is no meta line. */
export const MAX_META_LINE = 64 * 1024;

/** The first line (without its newline) and the file's size; "" for an empty file. */
export async function readFirstLine(path: string): Promise<{ line: string; size: number }> {
  const { handle, stats } = await openRegularStat(path);
  try {
    const buffer = Buffer.alloc(Math.min(MAX_META_LINE, stats.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    return { line: buffer.toString("utf8", 0, end === -1 ? bytesRead : end), size: stats.size };
  } finally {
    await handle.close();
  }
}

/**
 * The whole lines among the last `maxBytes` of the file, oldest first, and
 * whether the file holds more before them. The first line of the file (the
 * meta line) is never among them; a line cut by the window is dropped.
 */
export async function readTailLines(path: string, maxBytes: number): Promise<{ lines: string[]; truncated: boolean }> {
  const { handle, stats } = await openRegularStat(path);
  try {
    const metaEnd = await firstLineEnd(handle, stats.size);
    const start = Math.max(metaEnd, stats.size - maxBytes);
    const buffer = Buffer.alloc(stats.size - start);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    let from = 0;
    const truncated = start > metaEnd;
    // Unless the window starts right after a newline, its first line is cut.
    if (truncated) {
      const before = Buffer.alloc(1);
      await handle.read(before, 0, 1, start - 1);
      if (before[0] !== NEWLINE) from = buffer.subarray(0, read).indexOf(NEWLINE) + 1 || read;
    }
    return { lines: buffer.toString("utf8", from, read).split("\n"), truncated };
  } finally {
    await handle.close();
  }
}

/** Where the second line starts (the file's size when it has one line). */
export async function firstLineEnd(handle: FileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(Math.min(CHUNK, size));
  for (let at = 0; at < size; at += buffer.length) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
    if (bytesRead === 0) break;
    const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (end !== -1) return at + end + 1;
  }
  return size;
}

/**
 * Every line of the file after the first, oldest first, read a chunk at a
 * time. A line longer than `maxLine` bytes is skipped whole (`onSkip` is told
 * its length) rather than held: nothing the daemon reads this way needs one.
 */
export async function* eachLine(path: string, maxLine: number, onSkip: (bytes: number) => void = () => {}): AsyncGenerator<string, void, undefined> {
  const { handle, stats } = await openRegularStat(path);
  try {
    const chunk = Buffer.alloc(Math.min(CHUNK, Math.max(stats.size, 1)));
    let parts: Buffer[] = [];
    let held = 0;
    let skipping = 0;
    let first = true;
    for (let at = 0; ; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, at);
      if (bytesRead === 0) break;
      at += bytesRead;
      let from = 0;
      for (;;) {
        const end = chunk.subarray(from, bytesRead).indexOf(NEWLINE);
        const stop = end === -1 ? bytesRead : from + end;
        if (skipping > 0 || held + (stop - from) > maxLine) {
          skipping += stop - from + held;
          parts = [];
          held = 0;
        } else if (stop > from) {
          parts.push(Buffer.from(chunk.subarray(from, stop)));
          held += stop - from;
        }
        if (end === -1) break;
        if (skipping > 0) onSkip(skipping);
        else if (!first) yield Buffer.concat(parts, held).toString("utf8");
        first = false;
        parts = [];
        held = 0;
        skipping = 0;
        from = stop + 1;
      }
    }
    if (skipping > 0) onSkip(skipping);
    else if (held > 0 && !first) yield Buffer.concat(parts, held).toString("utf8");
  } finally {
    await handle.close();
  }
}
