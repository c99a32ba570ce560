// Session file names: `{agent}_{slug}_{seq}[_{titleslug}].jsonl` (docs/sessions.md#files-and-names, docs/sessions.md#listing-killing-deleting).
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { senderSlug, titleSlug } from "./slug.ts";

export const SESSION_EXT = ".jsonl";

/** The parts of a session file name, as `ListConversations` reports them. */
export interface SessionFileName {
  agent: string;
  /** Sender slug (the parts between agent and seq, joined by `_`). */
  sender: string;
  seq: number;
  /** Title slug (the parts after seq, joined by `_`); `""` if none. */
  title: string;
}

/** File name for a session of `agent` created by `createdBy`; a title adds its slug when non-empty. */
export function sessionFileName(agent: string, createdBy: string, seq: number, title?: string): string {
  const suffix = title === undefined ? "" : titleSlug(title);
  const stem = `${agent}_${senderSlug(createdBy)}_${seq}`;
  return `${stem}${suffix ? `_${suffix}` : ""}${SESSION_EXT}`;
}

const ALL_DIGITS = /^[0-9]+$/;

/**
 * Parse a file name per docs/sessions.md#listing-killing-deleting: split the stem on `_`; part 0 is the agent, the
 * first all-digit part at index ≥ 2 is the seq. Undefined for names that are
 * not `.jsonl`, have fewer than 3 parts or no seq.
 */
export function parseSessionFileName(name: string): SessionFileName | undefined {
  if (!name.endsWith(SESSION_EXT)) return undefined;
  const parts = name.slice(0, -SESSION_EXT.length).split("_");
  if (parts.length < 3) return undefined;
  const seqAt = parts.findIndex((p, i) => i >= 2 && ALL_DIGITS.test(p));
  if (seqAt === -1) return undefined;
  return {
    agent: parts[0],
    sender: parts.slice(1, seqAt).join("_"),
    seq: Number(parts[seqAt]),
    title: parts.slice(seqAt + 1).join("_"),
  };
}

/**
 * `name` carrying title slug `slug` (non-empty) instead of any title it had:
 * the parts up to the seq are kept verbatim. A name without a seq gets the
 * slug appended to its stem.
 */
export function withTitleSlug(name: string, slug: string): string {
  const stem = name.endsWith(SESSION_EXT) ? name.slice(0, -SESSION_EXT.length) : name;
  const parts = stem.split("_");
  const seqAt = parts.findIndex((p, i) => i >= 2 && ALL_DIGITS.test(p));
  const kept = seqAt === -1 ? stem : parts.slice(0, seqAt + 1).join("_");
  // The slug is cut so that the name still fits the file system.
  const fitted = cutToBytes(slug, MAX_NAME_BYTES - Buffer.byteLength(`${kept}_${SESSION_EXT}`));
  return fitted ? `${kept}_${fitted}${SESSION_EXT}` : `${kept}${SESSION_EXT}`;
}

/** File names longer than this fail on common file systems (ENAMETOOLONG). */
export const MAX_NAME_BYTES = 255;

/** `text` cut at a code point boundary to at most `max` UTF-8 bytes, without a trailing dash. */
function cutToBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = "";
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > max) break;
    out += ch;
  }
  return out.replace(/-+$/, "");
}

/** Entries of `dir` (none when it does not exist); their types come from the directory, nothing is opened. */
async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/**
 * Seq of `name` if it belongs to the identity whose prefix is
 * `{agent}_{slug}_`: the digits right after the prefix, followed by the end of
 * the stem or a `_` title suffix (so `other_agent_user_1` is not seq of
 * (other, agent)).
 */
function seqAfterPrefix(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix) || !name.endsWith(SESSION_EXT)) return undefined;
  const rest = name.slice(prefix.length, -SESSION_EXT.length);
  const m = /^([0-9]+)(?:_|$)/.exec(rest);
  return m ? Number(m[1]) : undefined;
}

/** The identity's names in `dir` with their seqs; `regularOnly` drops FIFOs, devices, links and directories. */
async function identitySeqs(dir: string, agent: string, createdBy: string, regularOnly: boolean): Promise<Array<[number, string]>> {
  const prefix = `${agent}_${senderSlug(createdBy)}_`;
  const found: Array<[number, string]> = [];
  for (const entry of await entries(dir)) {
    if (regularOnly && !entry.isFile()) continue;
    const seq = seqAfterPrefix(entry.name, prefix);
    if (seq !== undefined) found.push([seq, entry.name]);
  }
  return found;
}

/** 1 + the highest seq of the identity's names in `dir` (1 if none), whatever they are: a new file never takes a used name. */
export async function nextSeq(dir: string, agent: string, createdBy: string): Promise<number> {
  let max = 0;
  for (const [seq] of await identitySeqs(dir, agent, createdBy, false)) max = Math.max(max, seq);
  return max + 1;
}

/** Path of the identity's regular file with the highest seq, or undefined if it has none. */
export async function latestSessionFile(dir: string, agent: string, createdBy: string): Promise<string | undefined> {
  let best: [number, string] | undefined;
  for (const entry of await identitySeqs(dir, agent, createdBy, true)) {
    if (best === undefined || entry[0] > best[0]) best = entry;
  }
  return best === undefined ? undefined : join(dir, best[1]);
}
