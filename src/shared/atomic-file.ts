// Whole-file replacement that a crash cannot tear: temp file in the same
// directory, fsync, rename over the original (docs/home.md#writing-files-safely).
import { randomBytes } from "./random-bytes.ts";
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { forget } from "../session/kept-appends.ts";

/**
 * Temp names end in `.tmp-…`, never `.jsonl`, so a temp file left by a crash
 * is never listed or loaded as a session.
 */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
}

/** Replace `path` with `data`: readers see the old file or the new one, never a partial one. */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  let mode = 0o600;
  try {
    // The owner's bits only: a file left group- or world-readable by an older version is closed on rewrite.
    mode = (await stat(path)).mode & 0o700;
  } catch {
    // a new file: private by default, sessions hold conversations
  }
  const tmp = tempPathFor(path);
  try {
    const handle = await open(tmp, "wx", mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    forget(path); // a descriptor kept for appends has the replaced file open
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dirname(path));
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
