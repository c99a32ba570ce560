// Opening only regular files: a FIFO or device named like a session (a model's
// bash can `mkfifo sessions/crab_user_9.jsonl`) would block a read for ever and
// tie up the thread pool. O_NONBLOCK makes the open itself return at once; the
// descriptor is then checked before a single byte is read or written.
import { closeSync, constants, fstatSync, openSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(readonly path: string) {
    super(`${path} is not a regular file`);
  }
}

/** Opens `path` with `flags` (O_NONBLOCK added; created 0600 with O_CREAT) and fails unless it is a regular file. */
export async function openRegular(path: string, flags: number = constants.O_RDONLY): Promise<FileHandle> {
  return (await openRegularStat(path, flags)).handle;
}

/** openRegular, also handing back the stat it checked (so a caller needing the size asks the kernel once). */
export async function openRegularStat(path: string, flags: number = constants.O_RDONLY): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await open(path, flags | constants.O_NONBLOCK, 0o600);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path);
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** openRegularStat without the thread pool, for short appends: the descriptor, the file's size and identity. */
export function openRegularSync(path: string, flags: number): { fd: number; size: number; dev: number; ino: number } {
  const fd = openSync(path, flags | constants.O_NONBLOCK, 0o600);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path);
    return { fd, size: stats.size, dev: stats.dev, ino: stats.ino };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await openRegular(path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export async function readRegularText(path: string): Promise<string> {
  return (await readRegularFile(path)).toString("utf8");
}
