// Firing a cron entry (docs/cron.md#firing): a Send-like run of `/<skill>` with
// sender `cron` in the entry's session; the reply goes nowhere but history.
// It runs in the entry's own directory when it has one (sessions forget theirs
// at a restart), else where any run naming none does (docs/config.md).
import { basename } from "node:path";
import type { Host } from "../../runtime/host.ts";
import type { Session } from "../../runtime/sessions.ts";
import { startTurn } from "../turn.ts";
import type { CronEntry } from "./store.ts";

export const CRON_SENDER = "cron";

/**
 * The entry's session: still open under its id, else (after a restart) its
 * file resumed, else the latest session of its agent and identity.
 */
export async function cronSession(host: Host, entry: CronEntry): Promise<Session> {
  const open = host.sessions.get(entry.session);
  if (open && open.agent === entry.agent && open.createdBy === entry.sender) return open;
  const registered = (agent: string) => host.runtime.agents.has(agent);
  try {
    return await host.sessions.resolve({ agent: entry.agent, resumeFile: entry.file }, registered);
  } catch {
    // The file was renamed (a title) or removed: the identity's latest session then.
    return await host.sessions.resolve({ agent: entry.agent, sender: entry.sender }, registered);
  }
}

export async function fireCron(host: Host, entry: CronEntry, retarget: (session: bigint) => void): Promise<void> {
  const session = await cronSession(host, entry);
  retarget(session.id);
  const outcome = await startTurn(host, session, { content: `/${entry.skill}`, sender: CRON_SENDER, streaming: false, cwd: entry.cwd }).outcome;
  if (outcome.stopReason === "error" || outcome.stopReason === "aborted") {
    host.log.warn(`cron ${entry.id} (/${entry.skill}) in session ${session.id} (${basename(session.filePath)}) failed: ${outcome.error}`);
  }
}
