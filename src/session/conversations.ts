// `ListConversations` and `GetConversationHistory` over the files in
// `sessions/` (docs/sessions.md#listing-killing-deleting).
import { lstat, readdir } from "node:fs/promises";
import { readFirstLine } from "./lines.ts";
import { join, resolve } from "node:path";
import { countMessageLines, loadSessionFile, SessionFileError } from "./file.ts";
import { eachLine } from "./lines.ts";
import { parseEntryLine, parseMetaLine } from "./jsonl.ts";
import type { AssistantMessage, ToolMessage, UserMessage } from "../model/types.ts";
import { parseSessionFileName, SESSION_EXT } from "./names.ts";
import { senderSlug } from "./slug.ts";

export interface ConversationSummary {
  agent: string;
  /** Sender slug from the file name. */
  sender: string;
  seq: number;
  /** Title slug from the file name (`""` if none). */
  title: string;
  /** Absolute path. */
  filePath: string;
  /** Message lines in the file, archived ones included. */
  messageCount: number;
  /** Meta `uptime_secs` (0 if unreadable). */
  aliveSecs: number;
  /** `Today`, `Yesterday` or `YYYY-MM-DD` of the mtime, local time. */
  date: string;
}

export interface ConversationMessage {
  role: "user" | "assistant";
  content: string;
  /** An assistant message's tool calls with their saved results (docs/protocol.md "Tool calls in history"). */
  toolCalls?: ConversationToolCall[];
}

export interface ConversationToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Undefined when the file holds no result for the call. */
  output?: string;
  isError: boolean;
}

export interface ConversationHistory {
  title: string;
  agent: string;
  messages: ConversationMessage[];
  /** For a page: the index of its first message among all of the file's, and how many there are. */
  offset?: number;
  total?: number;
}

/** Files read at once while listing: bounds memory with many large sessions. */
const SCAN_CONCURRENCY = 16;

/**
 * Session files in `sessionsDir`, newest modification first. Both filters
 * set: names starting `{agent}_{sender_slug}_`; only `agent`: files whose
 * parsed agent is it; otherwise all (a sender-only filter is ignored).
 */
export async function listConversations(sessionsDir: string, agent: string, sender: string, now: Date = new Date()): Promise<ConversationSummary[]> {
  const dir = resolve(sessionsDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const prefix = agent && sender ? `${agent}_${senderSlug(sender)}_` : undefined;
  // A file renamed between the directory read and its scan (a title arriving:
  // docs/sessions.md#titles) is listed under its new name by another look,
  // which scans only the names it has not seen; a file deleted meanwhile is
  // just gone. Many conversations getting their titles at once each cost a look.
  const found = new Map<string, Listed>();
  for (let attempt = 1; ; attempt++) {
    const vanished = await scanNames(
      dir,
      names.filter((name) => !found.has(name)),
      prefix,
      agent,
      now,
      found,
    );
    if (!vanished || attempt === RELIST_ATTEMPTS) break;
    names = await readdir(dir).catch(() => []);
    const present = new Set(names);
    for (const name of found.keys()) if (!present.has(name)) found.delete(name);
  }
  const listed = [...found.values()];
  listed.sort((a, b) => b.mtimeMs - a.mtimeMs || a.summary.filePath.localeCompare(b.summary.filePath));
  return listed.map((f) => f.summary);
}

const RELIST_ATTEMPTS = 50;

interface Listed {
  summary: ConversationSummary;
  mtimeMs: number;
}

/** Scans `names` into `found` (by name); true when one of them was gone by the time it was read. */
async function scanNames(
  dir: string,
  names: readonly string[],
  prefix: string | undefined,
  agent: string,
  now: Date,
  found: Map<string, Listed>,
): Promise<boolean> {
  let vanished = false;
  await forEachLimited(names, SCAN_CONCURRENCY, async (name) => {
    if (!name.endsWith(SESSION_EXT)) return;
    if (prefix !== undefined && !name.startsWith(prefix)) return;
    const parsed = parseSessionFileName(name);
    if (parsed === undefined || (agent && prefix === undefined && parsed.agent !== agent)) return;
    const filePath = join(dir, name);
    const scanned = await scanFile(filePath);
    if (scanned === "vanished") vanished = true;
    if (scanned === undefined || scanned === "vanished") return;
    found.set(name, {
      mtimeMs: scanned.mtimeMs,
      summary: {
        ...parsed,
        filePath,
        messageCount: scanned.messageCount,
        aliveSecs: scanned.aliveSecs,
        date: dateLabel(new Date(scanned.mtimeMs), now),
      },
    });
  });
  return vanished;
}

interface ScannedFile {
  mtimeMs: number;
  messageCount: number;
  aliveSecs: number;
}

/** Modification time, message lines and meta uptime; undefined if it is not a file or cannot be read, "vanished" if it is gone. */
async function scanFile(path: string): Promise<ScannedFile | "vanished" | undefined> {
  try {
    const info = await lstat(path);
    if (!info.isFile()) return undefined;
    const { line, size } = await readFirstLine(path);
    const meta = parseMetaLine(line);
    return { mtimeMs: info.mtimeMs, messageCount: await messageCount(path, size, info.mtimeMs), aliveSecs: meta?.uptime_secs ?? 0 };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "vanished" : undefined;
  }
}

/**
 * Counting a file's messages reads all of it (a chunk at a time): the count
 * is kept per path for as long as its size and mtime stay the same, so a
 * listing reads again only the conversations that changed.
 */
const counted = new Map<string, { size: number; mtimeMs: number; count: number }>();
const MAX_COUNTED = 4096;

async function messageCount(path: string, size: number, mtimeMs: number): Promise<number> {
  const known = counted.get(path);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.count;
  const count = await countMessageLines(path);
  if (counted.size >= MAX_COUNTED) counted.delete(counted.keys().next().value as string);
  counted.set(path, { size, mtimeMs, count });
  return count;
}

async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** `Today`, `Yesterday` or local `YYYY-MM-DD` of `time` relative to `now`. */
export function dateLabel(time: Date, now: Date = new Date()): string {
  const day = localDay(time);
  if (day === localDay(now)) return "Today";
  if (day === localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1))) return "Yesterday";
  return day;
}

export function localDay(time: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}

/** The working context of a file (docs/sessions.md#loading), user and assistant messages only, with meta title and agent. */
export async function conversationHistory(path: string): Promise<ConversationHistory> {
  const { meta, messages } = await loadSessionFile(path);
  const kept: ConversationMessage[] = [];
  const results = new ToolResults();
  for (const m of messages) {
    if (m.role === "tool") results.attach(m);
    else kept.push(results.open(m));
  }
  return { title: meta.title, agent: meta.agent, messages: kept };
}

/** Content bytes of one page at most, so a page always fits in a reply frame. */
export const PAGE_MAX_BYTES = 8 * 1024 * 1024;
/** A message line longer than this is left out of pages (no reply could carry it). */
const PAGE_MAX_LINE = PAGE_MAX_BYTES;

/**
 * One page of every user and assistant message in the file, archived ones
 * (before a compaction) included: up to `limit` from index `offset`, fewer
 * when their content passes PAGE_MAX_BYTES (at least one). The file is read
 * a chunk at a time, so any conversation can be paged through.
 */
export async function conversationPage(path: string, offset: number, limit: number): Promise<ConversationHistory> {
  const { line } = await readFirstLine(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") throw new SessionFileError(path, "missing", `session file ${path} does not exist`);
    throw new SessionFileError(path, "unreadable", `cannot read session file ${path}: ${err.message}`);
  });
  const meta = parseMetaLine(line);
  if (meta === undefined) throw new SessionFileError(path, "invalid", `session file ${path} has no valid meta line`);
  const messages: ConversationMessage[] = [];
  // Results follow their assistant message in the file: kept for one on this page only.
  const results = new ToolResults();
  let total = 0;
  let bytes = 0;
  let full = false;
  for await (const text of eachLine(path, PAGE_MAX_LINE)) {
    const entry = parseEntryLine(text);
    if (entry?.kind !== "message") continue;
    const message = entry.message;
    if (message.role === "tool") {
      bytes += results.attach(message, PAGE_MAX_BYTES - bytes);
      continue;
    }
    results.clear();
    const index = total++;
    if (full || index < offset || messages.length >= limit) continue;
    const kept = results.open(message);
    const size = messageBytes(kept);
    if (messages.length > 0 && bytes + size > PAGE_MAX_BYTES) {
      results.clear();
      full = true;
      continue;
    }
    messages.push(kept);
    bytes += size;
  }
  return { title: meta.title, agent: meta.agent, messages, offset, total };
}

function messageBytes(m: ConversationMessage): number {
  let size = Buffer.byteLength(m.content);
  for (const c of m.toolCalls ?? []) size += Buffer.byteLength(c.id) + Buffer.byteLength(c.name) + Buffer.byteLength(c.arguments);
  return size;
}

const CUT_MARK = "\n…[truncated]";

/**
 * Tool results matched to the calls of the last assistant message by call id
 * (docs/protocol.md "Tool calls in history"): a result with no open call (its
 * message is not on this page) is skipped.
 */
class ToolResults {
  private calls = new Map<string, ConversationToolCall>();

  /** The message as history carries it; its tool calls are open for results until clear(). */
  open(m: UserMessage | AssistantMessage): ConversationMessage {
    this.calls.clear();
    if (m.role === "user" || !m.toolCalls?.length) return { role: m.role, content: m.content };
    const toolCalls = m.toolCalls.map((c): ConversationToolCall => ({ id: c.id, name: c.name, arguments: c.arguments, isError: false }));
    for (const c of toolCalls) if (c.id) this.calls.set(c.id, c);
    return { role: m.role, content: m.content, toolCalls };
  }

  /** Sets a result on its call, cut to `room` bytes; returns the bytes it added. */
  attach(m: ToolMessage, room = Number.POSITIVE_INFINITY): number {
    const call = this.calls.get(m.toolCallId);
    if (!call || call.output !== undefined) return 0;
    let output = m.content;
    if (Buffer.byteLength(output) > room) output = cutUtf8(output, Math.max(0, room - Buffer.byteLength(CUT_MARK))) + CUT_MARK;
    call.output = output;
    call.isError = m.isError === true;
    return Buffer.byteLength(output);
  }

  clear(): void {
    this.calls.clear();
  }
}

/** The longest prefix of `text` of at most `max` UTF-8 bytes, never cutting a character. */
function cutUtf8(text: string, max: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}
