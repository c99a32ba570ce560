// The daemon's memory as files (docs/memory.md): the protocol has no memory
// operations, so `crabtalk memory` reads <home>/memory directly, without
// writing anything there but the one file `forget` removes.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { indexDoc, rankBm25 } from "../runtime/memory/bm25.ts";
import { parseEntry, type MemoryEntry } from "../runtime/memory/entry.ts";
import { isEntryFile } from "../runtime/memory/store.ts";

export interface MemoryFile extends MemoryEntry {
  file: string;
}

/** Every readable entry, by name; unreadable files are skipped (the daemon log names them). */
export function readMemory(entriesDir: string): MemoryFile[] {
  let files: string[];
  try {
    files = readdirSync(entriesDir).filter(isEntryFile).sort();
  } catch {
    return [];
  }
  const out = new Map<string, MemoryFile>();
  for (const file of files) {
    try {
      const entry = parseEntry(readFileSync(join(entriesDir, file), "utf8"));
      if (!out.has(entry.name)) out.set(entry.name, { ...entry, file });
    } catch {
      // not an entry
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The best `limit` entries for `query`, ranked as the agents' recall ranks them. */
export function searchMemory(entries: MemoryFile[], query: string, limit: number): MemoryFile[] {
  const docs = entries.map((e) => ({ key: e, doc: indexDoc(`${e.description} ${e.content}`) }));
  return rankBm25(query, docs, limit, (a, b) => (a.name < b.name ? -1 : 1)).map((hit) => hit.key);
}

export function forgetFile(entriesDir: string, entry: MemoryFile): void {
  rmSync(join(entriesDir, entry.file), { force: true });
}
