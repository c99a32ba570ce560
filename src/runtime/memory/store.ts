// The memory store (docs/memory.md): entries keyed by name, one file each under
// `<dir>/entries/`, plus the curated `<dir>/MEMORY.md`. Everything is held in
// memory after `open`; every write goes to disk first (atomically), then to
// the in-memory copy, so a failed write changes nothing.
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { removeStaleTempFiles } from "../../base/atomic-file.ts";
import { indexDoc, rankBm25, type IndexedDoc } from "./bm25.ts";
import { entrySlug, formatEntry, parseEntry, type MemoryEntry } from "./entry.ts";
import { entryNameProblem } from "./entry-name.ts";
import { errorText, readTextIfExists, writeTextAtomic } from "./files.ts";
import { migrateLegacy } from "./migrate.ts";
import { formatRecall } from "./recall-format.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export const INDEX_FILE = "MEMORY.md";
export const ENTRIES_DIR = "entries";

interface Stored {
  entry: MemoryEntry;
  /** File name inside `entries/`. */
  file: string;
  doc: IndexedDoc;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class MemoryStore {
  private entries = new Map<string, Stored>();
  /** File names taken by an entry (or reserved by a write in flight). */
  private files = new Set<string>();
  /** Names `add` is writing now: taken, though not yet in `entries`. */
  private adding = new Set<string>();
  private index = "";

  private constructor(readonly dir: string) {}

  get entriesDir(): string {
    return join(this.dir, ENTRIES_DIR);
  }

  /** Loads `dir` (creating it), skipping unreadable entries with a warning, after the legacy migration. */
  static async open(dir: string, log: RuntimeLog): Promise<MemoryStore> {
    const store = new MemoryStore(dir);
    await mkdir(store.entriesDir, { recursive: true });
    await removeStaleTempFiles(dir);
    await removeStaleTempFiles(store.entriesDir);
    store.index = (await readTextIfExists(join(dir, INDEX_FILE))) ?? "";
    const names = (await readdir(store.entriesDir)).filter(isEntryFile).sort();
    if (names.length === 0) {
      await migrateLegacy(dir, { writeIndex: (c) => store.writeIndex(c), save: (e) => store.save(e) }, log);
      return store;
    }
    for (const file of names) {
      const path = join(store.entriesDir, file);
      try {
        const entry = parseEntry((await readTextIfExists(path)) ?? "");
        if (store.entries.has(entry.name)) {
          log.warn(`memory: skipping ${path}: entry '${entry.name}' is already loaded from another file`);
          store.files.add(file); // never overwritten by a new entry
          continue;
        }
        store.put(entry, file);
      } catch (err) {
        log.warn(`memory: skipping ${path}: ${errorText(err)}`);
        store.files.add(file); // left for the user to fix, never overwritten
      }
    }
    return store;
  }

  /** Entry names, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort(byName);
  }

  get(name: string): MemoryEntry | undefined {
    return this.entries.get(name.trim())?.entry;
  }

  /** The best `limit` entries for `query` by BM25 (docs/memory.md#recall-ranking), ties by name. */
  search(query: string, limit: number): MemoryEntry[] {
    const docs = [...this.entries.values()].map((s) => ({ key: s.entry.name, doc: s.doc }));
    return rankBm25(query, docs, limit, byName).map((hit) => this.entries.get(hit.key)!.entry);
  }

  /** docs/memory.md#recall-output text of `search`, or `no memories found`. */
  recall(query: string, limit: number): string {
    return formatRecall(this.search(query, limit));
  }

  /** Saves an entry; an existing name is overwritten in its own file. Throws when it cannot be saved. */
  async remember(name: string, description: string, content: string): Promise<MemoryEntry> {
    const entry = normalise(name, description, content);
    await this.save(entry);
    return entry;
  }

  /**
   * Saves a new entry, never overwriting one: undefined when the name is taken
   * (or being added right now). Throws when it cannot be saved.
   */
  async add(name: string, description: string, content: string): Promise<MemoryEntry | undefined> {
    const entry = normalise(name, description, content);
    if (this.entries.has(entry.name) || this.adding.has(entry.name)) return undefined;
    this.adding.add(entry.name);
    try {
      await this.save(entry);
    } finally {
      this.adding.delete(entry.name);
    }
    return entry;
  }

  /** Deletes the entry's file and the entry; false if there is no such entry. */
  async forget(name: string): Promise<boolean> {
    const stored = this.entries.get(name.trim());
    if (!stored) return false;
    await rm(join(this.entriesDir, stored.file), { force: true });
    this.entries.delete(stored.entry.name);
    this.files.delete(stored.file);
    return true;
  }

  /** MEMORY.md as loaded at open or last written through the store ("" if none). */
  readIndex(): string {
    return this.index;
  }

  async writeIndex(content: string): Promise<void> {
    await writeTextAtomic(join(this.dir, INDEX_FILE), content);
    this.index = content;
  }

  private async save(entry: MemoryEntry): Promise<void> {
    const existing = this.entries.get(entry.name);
    const file = existing?.file ?? this.freeFileFor(entry.name);
    this.files.add(file); // reserved before the write, so a concurrent save picks another
    try {
      await writeTextAtomic(join(this.entriesDir, file), formatEntry(entry));
    } catch (err) {
      if (!existing && this.entries.get(entry.name)?.file !== file) this.files.delete(file);
      throw err;
    }
    this.put(entry, file);
  }

  private put(entry: MemoryEntry, file: string): void {
    this.entries.set(entry.name, { entry, file, doc: indexDoc(`${entry.description} ${entry.content}`) });
    this.files.add(file);
  }

  /** `<slug>.md`, or `<slug>-2.md`, … when another name already has that slug. */
  private freeFileFor(name: string): string {
    const slug = entrySlug(name);
    for (let i = 1; ; i++) {
      const file = i === 1 ? `${slug}.md` : `${slug}-${i}.md`;
      if (!this.files.has(file)) return file;
    }
  }
}

export function isEntryFile(name: string): boolean {
  return name.endsWith(".md") && !name.startsWith(".");
}

/** The entry as it will read back from its file: one-line name and description, trimmed text. */
function normalise(name: string, description: string, content: string): MemoryEntry {
  const trimmed = name.trim();
  const problem = entryNameProblem(trimmed);
  if (problem) throw new Error(problem);
  return { name: trimmed, description: description.replace(/\s+/g, " ").trim(), content: content.replace(/\r\n/g, "\n").trim() };
}
