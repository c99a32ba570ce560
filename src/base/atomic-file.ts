// Whole-file replacement that a crash cannot tear (docs/home.md#writing-files-safely),
// the one way every layer replaces a file: a temp file in the same directory,
// fsync, rename over the original, fsync the directory. The file keeps its own
// mode, never more open than asked: a file left group- or world-readable by an
// older version is closed on rewrite.
import fs from "node:fs";
import { open, readdir, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "./random-bytes.ts";

export interface AtomicWriteOptions {
  /**
   * Mode of a newly created file (default 0600). An existing file keeps its
   * own mode, less any group/other bit this one lacks.
   */
  mode?: number;
  /**
   * Called right after the rename, before the directory is synced: a caller
   * that keeps the old file open (session appends) lets go of it here.
   */
  afterRename?: (path: string) => void;
}

/**
 * Temp names start with `.` and end in `.tmp-<pid>-<hex>`, never in the
 * file's own extension, so a temp file left by a crash is never listed or
 * loaded as what it replaces; removeStaleTempFiles clears them.
 */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
}

function modeFor(existing: number | undefined, options: AtomicWriteOptions): number {
  const requested = options.mode ?? 0o600;
  return existing === undefined ? requested : existing & (0o700 | requested);
}

/** Replace `path` with `data`: readers see the old file or the new one, never a partial one. */
/** What to write: the bytes, or a function writing them into the open temp file (a piece at a time, for a large file). */
export type AtomicContent = string | Uint8Array | ((handle: FileHandle) => Promise<void>);

export async function writeFileAtomic(path: string, data: AtomicContent, options: AtomicWriteOptions = {}): Promise<void> {
  let existing: number | undefined;
  try {
    existing = (await stat(path)).mode;
  } catch {
    // a new file: the requested mode
  }
  const tmp = tempPathFor(path);
  try {
    const handle = await open(tmp, "wx", modeFor(existing, options));
    try {
      if (typeof data === "function") await data(handle);
      else await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    options.afterRename?.(path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dirname(path));
}

/** writeFileAtomic for callers that cannot wait (config edits, start-up, the service files). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  let existing: number | undefined;
  try {
    existing = fs.statSync(path).mode;
  } catch {
    // a new file: the requested mode
  }
  const tmp = tempPathFor(path);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, "wx", modeFor(existing, options));
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, path);
    options.afterRename?.(path);
  } catch (err) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing; the original error is the useful one
      }
    }
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  syncDirSync(dirname(path));
}

/** Persist the rename itself; best effort, not every platform can fsync a directory. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

function syncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

const TEMP_NAME = /^\..+\.tmp-(\d+)-[0-9a-f]{12}$/;

/**
 * Remove temp files a crash left in `dir` (call at start, before any writes):
 * every one not made by this process. Returns the names removed.
 */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (m === null || Number(m[1]) === process.pid) continue;
    await rm(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
