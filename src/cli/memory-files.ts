// The daemon's memory as files (docs/memory.md): the protocol has no memory
// operations, so `crabtalk memory` reads <home>/memory directly, and writes
// there only the one file `add` creates or `forget` removes.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { indexDoc, rankBm25 } from "../runtime/memory/bm25.ts";
import { entrySlug, formatEntry, parseEntry, type MemoryEntry } from "../runtime/memory/entry.ts";
import { writeTextAtomic } from "../runtime/memory/files.ts";
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

/** A default entry name: the text's first line, cut at a word boundary to at most this many characters. */
const NAME_MAX_CHARS = 48;
const DESCRIPTION_MAX_CHARS = 120;

function firstLineCut(text: string, max: number): string {
  const line = (text.split("\n").find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}

/**
 * Writes a new entry as the agents' remember tool would (same file format,
 * `<slug>.md` or `<slug>-N.md`); refuses a name already remembered so that
 * nothing is overwritten. Returns the entry written.
 */
export async function addMemoryFile(entriesDir: string, text: string, opts: { name?: string; description?: string }): Promise<MemoryEntry> {
  const content = text.replace(/\r\n/g, "\n").trim();
  if (content === "") throw new Error("nothing to remember: give the text as an argument or on standard input");
  const name = (opts.name ?? firstLineCut(content, NAME_MAX_CHARS)).trim();
  if (name === "") throw new Error("the name is empty");
  if (/[\r\n]/.test(name)) throw new Error("the name must be a single line");
  const description = (opts.description ?? firstLineCut(content, DESCRIPTION_MAX_CHARS)).replace(/\s+/g, " ").trim();
  const existing = readMemory(entriesDir);
  if (existing.some((e) => e.name === name)) {
    throw new Error(`a memory named '${name}' exists already: pick another --name, or crabtalk memory forget '${name}' first`);
  }
  mkdirSync(entriesDir, { recursive: true, mode: 0o700 });
  const slug = entrySlug(name);
  let file = `${slug}.md`;
  for (let i = 2; existsSync(join(entriesDir, file)); i++) file = `${slug}-${i}.md`;
  const entry = { name, description, content };
  await writeTextAtomic(join(entriesDir, file), formatEntry(entry));
  return entry;
}
