// Reading and writing one session file (docs/sessions.md). Appends are
// plain line appends; the only other writes (create, meta rewrite) go through
// a temp file + rename, so a crash leaves at worst a torn last line.
import { closeSync, constants, readSync, writeSync } from "node:fs";
import { access, rename, type FileHandle } from "node:fs/promises";
import { forget, keep, reuse } from "./kept-appends.ts";
import { eachLine, firstLineEnd, readFirstLine, readTailLines } from "./lines.ts";
import { openRegularStat, openRegularSync } from "./regular-file.ts";
import { basename, dirname, join } from "node:path";
import type { Message } from "../model/types.ts";
import { syncDir, writeFileAtomic } from "../base/atomic-file.ts";
import { withFileLock } from "./file-lock.ts";
import {
  compactMarkerToLine,
  isPersisted,
  messageLinePieces,
  metaToLine,
  parseEntryLine,
  parseMetaLine,
  type SessionMeta,
  type StoredMessage,
} from "./jsonl.ts";
import { withTitleSlug } from "./names.ts";
import { titleSlug } from "./slug.ts";

export type SessionFileErrorReason = "missing" | "invalid" | "unreadable";

/** A session file that cannot be loaded; the message names the file. */
export class SessionFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: SessionFileErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "SessionFileError";
  }
}

export interface LoadedSession {
  meta: SessionMeta;
  /** Working history: from the last compact marker on (its summary as a user message). */
  messages: StoredMessage[];
}

const NEWLINE = 0x0a;

/** A replaced session file: a descriptor kept for appends has the old file open. */
const KEPT = { afterRename: forget };

/** Create (or truncate) the file holding only the meta line. */
export function createSessionFile(path: string, meta: SessionMeta): Promise<void> {
  return withFileLock(path, () => writeFileAtomic(path, Buffer.from(`${metaToLine(meta)}\n`), KEPT));
}

/**
 * Append the persisted messages (injected and system ones are skipped) in one
 * write, so the lines of one call land together. The file must exist: an
 * append never creates a file without its meta line.
 */
export async function appendMessages(path: string, messages: readonly Message[]): Promise<void> {
  const stored = messages.filter(isPersisted);
  if (stored.length > 0) await appendPieces(path, stored.map(messageLinePieces));
}

/** Append a compact marker, then `after` (the messages that follow it), in one append. */
export async function appendCompactMarker(path: string, summary: string, after: readonly Message[] = []): Promise<void> {
  await appendPieces(path, [[compactMarkerToLine(summary)], ...after.filter(isPersisted).map(messageLinePieces)]);
}

/**
 * Appends whole lines after repairing a torn last line. Without
 * `create` the file must exist: appending to a session file renamed or
 * deleted meanwhile must fail. Other append-only logs (the usage ledger) pass it.
 * The append is a few small synchronous calls on a local file (cheaper than
 * trips through the thread pool); the descriptor is kept for the next append
 * to the same path (kept-appends.ts), which then costs a stat and a write.
 */
export function appendLines(path: string, lines: string[], create = false): Promise<void> {
  return appendPieces(
    path,
    lines.map((line) => [line]),
    create,
  );
}

/**
 * appendLines of lines given in pieces. Lines of up to APPEND_BATCH units go
 * in one write; a longer one is written a batch at a time, so an answer of
 * megabytes costs one batch, not a copy of the whole line (issue 23).
 */
function appendPieces(path: string, lines: Iterable<string>[], create = false): Promise<void> {
  return withFileLock(path, async () => {
    const reused = reuse(path);
    const file = reused ?? openRegularSync(path, constants.O_RDWR | constants.O_APPEND | (create ? constants.O_CREAT : 0));
    try {
      const out = new BatchedWrites(file.fd);
      // A torn last line (crash mid-append) must not swallow the first new line.
      if (file.size > 0 && !reused?.endsAsWeLeftIt) {
        const last = Buffer.alloc(1);
        readSync(file.fd, last, 0, 1, file.size - 1);
        if (last[0] !== NEWLINE) out.add("\n");
      }
      for (const line of lines) {
        for (const piece of line) out.add(piece);
        out.add("\n");
      }
      out.flush();
      keep(path, file, file.size + out.written);
    } catch (err) {
      if (reused) forget(path);
      else closeSync(file.fd);
      throw err;
    }
  });
}

/** Bytes gathered for one write. */
const APPEND_BATCH = 1024 * 1024;
/** The buffer appends encode into (appends run one at a time, synchronously). */
let staging = Buffer.allocUnsafe(4096);

/**
 * Strings encoded into one buffer and written when it is full: no string or
 * buffer per piece is left for the collector (measured: a 12 MiB answer in
 * joined batches still peaked at 90 MiB).
 */
class BatchedWrites {
  written = 0;
  private buffer = staging;
  private used = 0;

  constructor(private readonly fd: number) {}

  add(text: string): void {
    const most = text.length * 3; // UTF-8 bytes of a UTF-16 unit, at most
    if (this.used + most > this.buffer.length) {
      this.flush();
      // Grown to APPEND_BATCH when first needed and kept for the next appends; a longer piece has its own.
      if (most > this.buffer.length) this.buffer = Buffer.allocUnsafe(Math.max(APPEND_BATCH, most));
      if (this.buffer.length === APPEND_BATCH) staging = this.buffer;
    }
    this.used += this.buffer.write(text, this.used);
  }

  flush(): void {
    if (!this.buffer) return;
    for (let offset = 0; offset < this.used; ) offset += writeSync(this.fd, this.buffer, offset, this.used - offset);
    this.written += this.used;
    this.used = 0;
  }
}

/**
 * The newest bytes of a file a resume reads (docs/sessions.md#large-conversations):
 * 8 MiB holds about 2 million tokens, more than any model's context window,
 * so a history longer than that is never held whole.
 */
export const RESUME_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Load the file's working history: from its last compact marker on, or its
 * newest `maxBytes` when the file is larger (starting at a user message, so
 * no tool result is left without its call). Throws SessionFileError when it
 * is missing, empty or its meta line is invalid.
 */
export function loadSessionFile(path: string, maxBytes = RESUME_MAX_BYTES): Promise<LoadedSession> {
  return withFileLock(path, async () => {
    const { first, tail } = await readSession(path, maxBytes);
    if (first.size === 0 || (first.line.trim() === "" && tail.lines.every((l) => l.trim() === ""))) {
      throw new SessionFileError(path, "invalid", `session file ${path} is empty`);
    }
    const meta = parseMetaLine(first.line);
    if (meta === undefined) throw new SessionFileError(path, "invalid", `session file ${path} has no valid meta line`);
    let messages: StoredMessage[] = [];
    for (const line of tail.lines) {
      const entry = parseEntryLine(line);
      if (entry === undefined) continue;
      if (entry.kind === "compact") messages = [{ role: "user", content: entry.summary }];
      else messages.push(entry.message);
    }
    if (tail.truncated) {
      const start = messages.findIndex((m) => m.role === "user");
      messages = start === -1 ? [] : messages.slice(start);
    }
    return { meta, messages };
  });
}

async function readSession(path: string, maxBytes: number) {
  try {
    const first = await readFirstLine(path);
    return { first, tail: await readTailLines(path, maxBytes) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new SessionFileError(path, "missing", `session file ${path} does not exist`);
    throw new SessionFileError(path, "unreadable", `cannot read session file ${path}: ${(err as Error).message}`);
  }
}

/** Replace the meta line (temp file + rename); the caller passes `created_at` to keep. */
export function rewriteMeta(path: string, meta: SessionMeta): Promise<void> {
  return withFileLock(path, async () => {
    const { handle: source, stats } = await openRegularStat(path);
    try {
      const rest = await firstLineEnd(source, stats.size);
      // The lines after the meta line are copied a chunk at a time: a file of
      // hundreds of MiB costs the daemon one chunk, not the file twice (issue 23).
      await writeFileAtomic(
        path,
        async (target) => {
          await writeAll(target, Buffer.from(`${metaToLine(meta)}\n`));
          const chunk = Buffer.alloc(Math.min(COPY_CHUNK, Math.max(1, stats.size - rest)));
          for (let at = rest; ; ) {
            const { bytesRead } = await source.read(chunk, 0, chunk.length, at);
            if (bytesRead === 0) break;
            await writeAll(target, chunk.subarray(0, bytesRead));
            at += bytesRead;
          }
        },
        KEPT,
      );
    } finally {
      await source.close();
    }
  });
}

const COPY_CHUNK = 1024 * 1024;

async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  for (let done = 0; done < data.length; ) done += (await handle.write(data, done, data.length - done)).bytesWritten;
}

/**
 * Rename the file to carry the title slug (docs/sessions.md#files-and-names) and return its new path.
 * Unchanged when the slug is empty, the name already carries it, or another
 * file already has the target name (never overwrite a conversation).
 */
export function renameForTitle(path: string, title: string): Promise<string> {
  const target = titledPath(path, title);
  if (target === path) return Promise.resolve(path);
  return withFileLock(path, async () => {
    if (await exists(target)) return path;
    await rename(path, target);
    forget(path); // its descriptor now serves the new name, which opens its own
    await syncDir(dirname(path));
    return target;
  });
}

function titledPath(path: string, title: string): string {
  const slug = titleSlug(title);
  return slug === "" ? path : join(dirname(path), withTitleSlug(basename(path), slug));
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Message lines (docs/sessions.md#listing-killing-deleting): non-blank lines after the meta line not containing `"compact"`, counted a chunk at a time. */
export async function countMessageLines(path: string): Promise<number> {
  let count = 0;
  // A line too long to hold is still a message line: counted, not read.
  for await (const line of eachLine(path, MAX_COUNTED_LINE, () => count++)) {
    if (line.trim() !== "" && !line.includes('"compact"')) count++;
  }
  return count;
}

const MAX_COUNTED_LINE = 1024 * 1024;
