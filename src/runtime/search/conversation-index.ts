// Search across conversations (docs/search.md): the user and assistant
// messages of every session file, ranked with the memory store's BM25
// (runtime/memory/bm25.ts). Kept current by the runs that append messages,
// and saved to one snapshot file so a restart reads only that file plus the
// session files that changed since it was written. Unused for the idle limit
// (`[system.sessions] unload_after`), it is saved and dropped from memory; the
// next search reads it back the same way a restart does.
import type { Stats } from "node:fs";
import { lstat, mkdir, readdir, readFile } from "node:fs/promises";
import { readFirstLine, readTailLines } from "../../session/lines.ts";
import { basename, dirname, join } from "node:path";
import type { Message } from "../../model/types.ts";
import { writeFileAtomic } from "../../base/atomic-file.ts";
import { dateLabel } from "../../session/conversations.ts";
import { parseEntryLine, parseMetaLine, type SessionMeta } from "../../session/jsonl.ts";
import { parseSessionFileName, SESSION_EXT } from "../../session/names.ts";
import { senderSlug } from "../../session/slug.ts";
import { Bm25Index, indexDoc } from "../memory/bm25.ts";
import { InFlight } from "../in-flight.ts";
import { SILENT_LOG, type RuntimeLog } from "../../base/runtime-log.ts";

export interface ConversationText {
  role: "user" | "assistant";
  content: string;
}

export interface SearchFilter {
  agent?: string;
  /** A sender name; matched by its slug, as file names carry it. */
  sender?: string;
  limit: number;
}

export interface ConversationHit {
  filePath: string;
  title: string;
  /** `Today`, `Yesterday` or `YYYY-MM-DD` of the last message. */
  date: string;
  agent: string;
  /** Sender slug from the file name. */
  sender: string;
  score: number;
  match: ConversationText;
  before?: ConversationText;
  after?: ConversationText;
}

interface IndexedMessage extends ConversationText {
  file: IndexedFile;
  at: number;
}

interface IndexedFile {
  /** File name inside the sessions directory. */
  name: string;
  agent: string;
  sender: string;
  title: string;
  /** Size and mtime the messages were read at; `dirty` once a run appended since. */
  size: number;
  mtimeMs: number;
  dirty: boolean;
  /** Last activity, for the hit's date. */
  updatedMs: number;
  messages: IndexedMessage[];
  /** Content bytes of `messages`. */
  bytes: number;
}

/** On-disk snapshot: message texts, not token counts (tokenising on load is cheap). */
interface Snapshot {
  version: 1;
  files: Array<Omit<IndexedFile, "messages" | "dirty" | "bytes"> & { messages: [ConversationText["role"], string][] }>;
}

const SNAPSHOT_VERSION = 1;
/**
 * Bytes of a conversation's newest lines that are indexed: what the index
 * holds per conversation is bounded, however long it grows. A conversation
 * whose indexed text passes twice this (runs appending to it) is read again.
 */
export const INDEXED_BYTES = 2 * 1024 * 1024;
const STAT_BATCH = 64;
const YIELD_EVERY_FILES = 100;

export class ConversationIndex {
  private files = new Map<string, IndexedFile>();
  /** Every indexed message, keyed by itself. */
  private bm25 = new Bm25Index<IndexedMessage>();
  /** Set while loading or loaded; undefined before the first load and after an unload. */
  private loaded: Promise<void> | undefined;
  private isLoaded = false;
  /** When the index was last loaded or searched. */
  private lastUsed = 0;
  /** Dropped from memory after this long unused (ms); 0: kept. */
  private idleLimitMs = 0;
  /**
   * Files to read whole: appended to before the index was loaded, or not in
   * it yet (a new conversation, or one added to sessions/ meanwhile).
   */
  private pending = new Set<string>();
  /** Reads of pending files in flight; a search waits for them. */
  private reading: Promise<void> = Promise.resolve();
  private changed = false;

  constructor(
    readonly sessionsDir: string,
    readonly snapshotPath: string,
    private readonly log: RuntimeLog = SILENT_LOG,
    /** Title renames under way, each ending with `renamed`. */
    private readonly titleRenames = new InFlight(),
  ) {}

  /** Loads the snapshot and catches up with the directory; once, however often called. */
  load(): Promise<void> {
    this.lastUsed = Date.now();
    this.loaded ??= this.catchUp().catch((err: unknown) => {
      this.loaded = undefined; // the next call tries again
      throw err;
    });
    return this.loaded;
  }

  /** Whether it is in memory now. */
  get inMemory(): boolean {
    return this.isLoaded;
  }

  /** Drops the index from memory once unused for `secs` (0: never); see unloadIfIdle. */
  unloadAfter(secs: number): void {
    this.idleLimitMs = secs * 1000;
  }

  /**
   * Saves the index and drops it from memory if it has been unused past the
   * limit; true if it did. Appends while it is out of memory are not
   * tracked: the next load finds the files that changed by size and mtime.
   */
  async unloadIfIdle(now = Date.now()): Promise<boolean> {
    const idle = () => this.isLoaded && this.idleLimitMs > 0 && now - this.lastUsed >= this.idleLimitMs;
    if (!idle()) return false;
    await this.reading;
    await this.save();
    // Anything that changed it meanwhile (a run, a search) keeps it for another round.
    if (!idle() || this.changed || this.pending.size > 0) return false;
    this.files = new Map();
    this.bm25 = new Bm25Index();
    this.loaded = undefined;
    this.isLoaded = false;
    return true;
  }

  /** Whether there are changes the snapshot does not hold yet. */
  get unsaved(): boolean {
    return this.changed;
  }

  /** A run appended `messages` to the session file at `path`. */
  appended(path: string, meta: SessionMeta, messages: readonly Message[]): void {
    const name = this.nameOf(path);
    if (!name || !this.loaded) return;
    const file = this.isLoaded ? this.files.get(name) : undefined;
    if (!file) {
      this.readLater(name);
      return;
    }
    file.title = meta.title;
    file.dirty = true;
    file.updatedMs = Date.now();
    for (const m of messages) {
      if ((m.role === "user" && !m.injected) || m.role === "assistant") this.push(file, m.role, m.content);
    }
    if (file.bytes > 2 * INDEXED_BYTES) this.readLater(name);
    this.touch();
  }

  /** A title renamed the file (and set the meta title). */
  renamed(from: string, to: string, title: string): void {
    const old = this.nameOf(from);
    const name = this.nameOf(to);
    if (!old || !name || !this.loaded) return;
    const file = this.isLoaded ? this.files.get(old) : undefined;
    if (!file) {
      // A read of the old name may be under way (a run appended just before
      // the title came) and would add it back once done: read it again after
      // that, which finds it gone and drops it.
      this.readLater(old);
      this.readLater(name);
      return;
    }
    this.files.delete(old);
    Object.assign(file, { name, title, dirty: true });
    this.files.set(name, file);
    this.touch();
  }

  /** The file was deleted. */
  removed(path: string): void {
    const name = this.nameOf(path);
    if (!name) return;
    this.drop(name);
    // A read of it under way would add it back: read it again after, which finds it gone.
    if (this.loaded) this.readLater(name);
    else this.pending.delete(name);
  }

  /** Best conversation first: each with its best message and one message either side. */
  async search(query: string, filter: SearchFilter): Promise<ConversationHit[]> {
    await this.load();
    // A search asked after a listing that shows a title's new name never answers the old one.
    await this.titleRenames.settled();
    await this.reading;
    this.lastUsed = Date.now();
    const slug = filter.sender ? senderSlug(filter.sender) : undefined;
    const wanted = (f: IndexedFile) => (!filter.agent || f.agent === filter.agent) && (slug === undefined || f.sender === slug);
    const order = (a: IndexedMessage, b: IndexedMessage) => compareNames(a.file.name, b.file.name) || a.at - b.at;
    const ranked = this.bm25.search(query, Infinity, order, (m) => wanted(m.file));
    const hits: ConversationHit[] = [];
    const seen = new Set<IndexedFile>();
    for (const { key, score } of ranked) {
      if (hits.length >= filter.limit) break;
      if (seen.has(key.file)) continue;
      seen.add(key.file);
      hits.push(this.hit(key.file, key.at, score));
    }
    return hits;
  }

  /** Writes the snapshot (temp file + rename) if anything changed since the last one. */
  async save(): Promise<void> {
    if (!this.isLoaded || !this.changed) return;
    this.changed = false;
    try {
      for (const file of this.files.values()) {
        if (!file.dirty) continue;
        // What the file looks like now holds every message appended so far.
        const info = await lstat(join(this.sessionsDir, file.name)).catch(() => undefined);
        if (info) Object.assign(file, { size: info.size, mtimeMs: Math.trunc(info.mtimeMs), dirty: false });
      }
      const snapshot: Snapshot = {
        version: SNAPSHOT_VERSION,
        files: [...this.files.values()].map(({ messages, dirty: _, bytes: __, ...f }) => ({ ...f, messages: messages.map((m) => [m.role, m.content]) })),
      };
      await mkdir(dirname(this.snapshotPath), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.snapshotPath, Buffer.from(JSON.stringify(snapshot)));
    } catch (err) {
      this.changed = true;
      this.log.warn(`could not save the conversation search index ${this.snapshotPath}: ${(err as Error).message}`);
    }
  }

  private async catchUp(): Promise<void> {
    await this.readSnapshot();
    let names: string[] = [];
    try {
      names = (await readdir(this.sessionsDir)).filter((n) => n.endsWith(SESSION_EXT) && !n.startsWith("."));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    const present = new Set(names);
    for (const name of [...this.files.keys()]) {
      if (!present.has(name)) this.drop(name);
    }
    // Looked at a batch at a time: one lstat after another made a load after
    // an idle unload wait on 10,000 round trips to the thread pool.
    const infos = new Map<string, Stats | undefined>();
    for (let i = 0; i < names.length; i += STAT_BATCH) {
      const batch = names.slice(i, i + STAT_BATCH);
      const stats = await Promise.all(batch.map((name) => lstat(join(this.sessionsDir, name)).catch(() => undefined)));
      batch.forEach((name, j) => infos.set(name, stats[j]));
    }
    for (const name of names) {
      const info = infos.get(name);
      const known = this.files.get(name);
      // Symlinks are never followed: a link in sessions/ must not expose a file elsewhere.
      if (!info?.isFile()) {
        this.drop(name);
        continue;
      }
      if (known && known.size === info.size && known.mtimeMs === Math.trunc(info.mtimeMs)) continue;
      await this.readFile(name);
    }
    this.isLoaded = true;
    this.readLater();
    await this.reading;
    await this.save();
  }

  /** Reads `name` (and whatever else is pending) once the index is loaded. */
  private readLater(name?: string): void {
    if (name) this.pending.add(name);
    if (!this.isLoaded) return;
    this.reading = this.reading.then(async () => {
      for (const next of [...this.pending]) {
        this.pending.delete(next);
        await this.readFile(next);
      }
    });
  }

  /**
   * (Re)reads one session file; a file that cannot be read is left out. Only
   * its newest INDEXED_BYTES are read and indexed (docs/search.md#the-index),
   * so a huge conversation costs the index no more than a long one.
   */
  private async readFile(name: string): Promise<void> {
    const path = join(this.sessionsDir, name);
    try {
      const info = await lstat(path);
      if (!info.isFile()) throw new Error("not a regular file");
      const { line } = await readFirstLine(path);
      const meta = parseMetaLine(line);
      if (!meta) throw new Error("no valid meta line");
      const { lines } = await readTailLines(path, INDEXED_BYTES);
      const file = this.newFile(name, meta);
      Object.assign(file, { size: info.size, mtimeMs: Math.trunc(info.mtimeMs), updatedMs: info.mtimeMs });
      for (const text of lines) {
        const entry = parseEntryLine(text);
        if (entry?.kind !== "message") continue;
        const m = entry.message;
        if (m.role === "user" || m.role === "assistant") this.push(file, m.role, m.content);
      }
    } catch (err) {
      this.drop(name);
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") this.log.warn(`search index: skipping ${path}: ${(err as Error).message}`);
      return;
    }
    this.touch();
  }

  /** Fills the index from the snapshot; nothing when there is none or it is unreadable. */
  private async readSnapshot(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.snapshotPath, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        this.log.warn(`search index ${this.snapshotPath} unreadable, rebuilding: ${(err as Error).message}`);
      return;
    }
    try {
      const snapshot = JSON.parse(text) as Snapshot;
      if (snapshot.version !== SNAPSHOT_VERSION || !Array.isArray(snapshot.files)) throw new Error("unknown format");
      for (const [i, f] of snapshot.files.entries()) {
        // Indexing is CPU-bound (about 0.3 s per 1,000 conversations here): other
        // clients' requests get their turn between slices, as after an idle unload
        // the first search loads it while the daemon is serving.
        if (i > 0 && i % YIELD_EVERY_FILES === 0) await new Promise((resolve) => setImmediate(resolve));
        if (typeof f.name !== "string" || f.name.includes("/") || !Array.isArray(f.messages)) continue;
        const file: IndexedFile = { ...f, dirty: false, messages: [], bytes: 0 };
        this.files.set(f.name, file);
        for (const [role, content] of f.messages) {
          if ((role === "user" || role === "assistant") && typeof content === "string") this.push(file, role, content);
        }
      }
    } catch (err) {
      this.log.warn(`search index ${this.snapshotPath} unreadable, rebuilding: ${(err as Error).message}`);
      for (const name of [...this.files.keys()]) this.drop(name);
      this.changed = true;
    }
  }

  private newFile(name: string, meta: SessionMeta): IndexedFile {
    this.drop(name);
    const parsed = parseSessionFileName(name);
    const file: IndexedFile = {
      name,
      agent: meta.agent,
      sender: parsed?.sender ?? senderSlug(meta.created_by),
      title: meta.title,
      size: -1,
      mtimeMs: -1,
      dirty: true,
      updatedMs: Date.now(),
      messages: [],
      bytes: 0,
    };
    this.files.set(name, file);
    return file;
  }

  private hit(file: IndexedFile, at: number, score: number): ConversationHit {
    const text = (m: IndexedMessage | undefined): ConversationText | undefined => m && { role: m.role, content: m.content };
    return {
      filePath: join(this.sessionsDir, file.name),
      title: file.title,
      date: dateLabel(new Date(file.updatedMs)),
      agent: file.agent,
      sender: file.sender,
      score,
      match: text(file.messages[at])!,
      before: text(file.messages[at - 1]),
      after: text(file.messages[at + 1]),
    };
  }

  private push(file: IndexedFile, role: ConversationText["role"], content: string): void {
    if (content.trim() === "") return;
    const message: IndexedMessage = { role, content, file, at: file.messages.length };
    file.messages.push(message);
    file.bytes += content.length;
    this.bm25.add(message, indexDoc(content));
  }

  /** Forgets a file and its messages. */
  private drop(name: string): void {
    const file = this.files.get(name);
    if (!file) return;
    for (const m of file.messages) this.bm25.remove(m);
    this.files.delete(name);
    this.touch();
  }

  private touch(): void {
    this.changed = true;
  }

  /** The file name of a path in the sessions directory; undefined for anything else. */
  private nameOf(path: string): string | undefined {
    return dirname(path) === this.sessionsDir ? basename(path) : undefined;
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
