// Descriptors of the files appended to lately (session files, the usage
// ledger), kept open between appends: opening a file is the dearest part of a
// short append. Every reuse is checked with one stat of the path: it must still
// name the very file the descriptor has open (a title rename, a meta rewrite, a
// deletion or a swap by someone else all show), else the caller opens afresh.
import { closeSync, statSync } from "node:fs";

interface KeptFile {
  fd: number;
  dev: number;
  ino: number;
  /** The file's size right after our last write to it (its last byte a newline we wrote). */
  end: number;
}

/**
 * Enough for a hundred conversations running at once and the ledger (with
 * fewer, every append at 100 concurrent streams found its descriptor closed
 * already); few next to the descriptor limit and the connections it serves.
 */
export const MAX_KEPT = 128;
const kept = new Map<string, KeptFile>();

/**
 * The kept descriptor of `path` when the path still names its file, with the
 * file's size and whether it still ends where our last write did; undefined
 * (and nothing kept) otherwise.
 */
export function reuse(path: string): (Identified & { size: number; endsAsWeLeftIt: boolean }) | undefined {
  const file = kept.get(path);
  if (!file) return undefined;
  let stats;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  if (!stats?.isFile() || stats.ino !== file.ino || stats.dev !== file.dev) {
    forget(path);
    return undefined;
  }
  // Most recently used last: the oldest is the one closed when too many are kept.
  kept.delete(path);
  kept.set(path, file);
  return { fd: file.fd, dev: file.dev, ino: file.ino, size: stats.size, endsAsWeLeftIt: stats.size === file.end };
}

export interface Identified {
  fd: number;
  dev: number;
  ino: number;
}

/** Keeps `file` (open on `path`) after a write that left it `end` bytes long. */
export function keep(path: string, file: Identified, end: number): void {
  if (kept.get(path)?.fd !== file.fd) forget(path);
  kept.delete(path);
  kept.set(path, { fd: file.fd, dev: file.dev, ino: file.ino, end });
  for (const [oldest] of kept) {
    if (kept.size <= MAX_KEPT) break;
    forget(oldest);
  }
}

/** Closes and forgets the descriptor kept for `path`, if any. */
export function forget(path: string): void {
  const file = kept.get(path);
  if (!file) return;
  kept.delete(path);
  try {
    closeSync(file.fd);
  } catch {
    // Already closed: nothing to release.
  }
}
