// The working directory of each ACP session, kept in <home>/acp/sessions.jsonl.
// The daemon does not save a session's directory in its file
// (docs/sessions.md#resume), and session/list must name it, so this client
// keeps one line per session it opened or loaded (the last line wins).
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { homeOf } from "../daemon-control.ts";

export interface IndexedSession {
  sessionId: string;
  agent: string;
  cwd: string;
  /** When the line was written (ISO 8601). */
  at: string;
}

function indexFile(): string {
  return join(homeOf().home, "acp", "sessions.jsonl");
}

export function remember(entry: Omit<IndexedSession, "at">): void {
  const file = indexFile();
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    appendFileSync(file, `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`, { mode: 0o600 });
  } catch {
    // Only session/list's directories depend on it; a session works without.
  }
}

/** Every session the index knows, by id (its latest line). */
export function indexed(): Map<string, IndexedSession> {
  const byId = new Map<string, IndexedSession>();
  let text = "";
  try {
    text = readFileSync(indexFile(), "utf8");
  } catch {
    return byId;
  }
  for (const line of text.split("\n")) {
    try {
      const e = JSON.parse(line) as IndexedSession;
      if (typeof e.sessionId === "string" && typeof e.cwd === "string") byId.set(e.sessionId, e);
    } catch {
      // a torn or foreign line
    }
  }
  return byId;
}
