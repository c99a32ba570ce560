// `ListConversations` and `GetConversationHistory` over the files in
// `sessions/` (docs/sessions.md#listing-killing-deleting).
import { lstat, readdir } from "node:fs/promises";
import { readRegularText } from "./regular-file.ts";
import { join, resolve } from "node:path";
import { countMessageLinesOf, loadSessionFile } from "./file.ts";
import { parseMetaLine } from "./jsonl.ts";
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
}

export interface ConversationHistory {
  title: string;
  agent: string;
  messages: ConversationMessage[];
}

/** Files read at once while listing: bounds memory with many large sessions. */
const SCAN_CONCURRENCY = 16;

/**
 * Session files in `sessionsDir`, newest modification first. Both filters
 * set: names starting `{agent}_{sender_slug}_`; only `agent`: files whose
 * parsed agent is it; otherwise all (a sender-only filter is ignored).
 */
export async function listConversations(
  sessionsDir: string,
  agent: string,
  sender: string,
  now: Date = new Date(),
): Promise<ConversationSummary[]> {
  const dir = resolve(sessionsDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const prefix = agent && sender ? `${agent}_${senderSlug(sender)}_` : undefined;
  // A file renamed between the directory read and its scan (a title arriving: docs/sessions.md#titles) is
  // listed under its new name by a second look; a file deleted meanwhile is just gone.
  for (let attempt = 1; ; attempt++) {
    const { found, vanished } = await scanNames(dir, names, prefix, agent, now);
    if (!vanished || attempt === RELIST_ATTEMPTS) {
      found.sort((a, b) => b.mtimeMs - a.mtimeMs || a.summary.filePath.localeCompare(b.summary.filePath));
      return found.map((f) => f.summary);
    }
    names = await readdir(dir).catch(() => []);
  }
}

const RELIST_ATTEMPTS = 3;

async function scanNames(
  dir: string,
  names: readonly string[],
  prefix: string | undefined,
  agent: string,
  now: Date,
): Promise<{ found: Array<{ summary: ConversationSummary; mtimeMs: number }>; vanished: boolean }> {
  const found: Array<{ summary: ConversationSummary; mtimeMs: number }> = [];
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
    found.push({
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
  return { found, vanished };
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
    const text = await readRegularText(path);
    const end = text.indexOf("\n");
    const meta = parseMetaLine(end === -1 ? text : text.slice(0, end));
    return { mtimeMs: info.mtimeMs, messageCount: countMessageLinesOf(text), aliveSecs: meta?.uptime_secs ?? 0 };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "vanished" : undefined;
  }
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
  for (const m of messages) {
    if (m.role === "user" || m.role === "assistant") kept.push({ role: m.role, content: m.content });
  }
  return { title: meta.title, agent: meta.agent, messages: kept };
}
