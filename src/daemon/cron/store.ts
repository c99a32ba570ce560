// crons.toml (docs/cron.md#cronstoml): memory is authoritative; the file is rewritten
// in full after every change, atomically (docs/home.md#writing-files-safely).
import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomicSync } from "../../base/atomic-file.ts";
import { parse, stringify } from "smol-toml";
import { validateSchedule } from "./schedule.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export interface CronEntry {
  id: bigint;
  schedule: string;
  skill: string;
  /** The target session id when created (process-local). */
  session: bigint;
  quietStart?: string;
  quietEnd?: string;
  once: boolean;
  /** Ours (docs/cron.md#entries): find the session again after a restart. */
  agent: string;
  sender: string;
  file: string;
  /** Ours: the absolute directory each firing runs in (docs/protocol.md "Cron"); absent = the session's. */
  cwd?: string;
}

export function loadCrons(path: string, log: RuntimeLog): CronEntry[] {
  if (!existsSync(path)) return [];
  let doc: { cron?: unknown };
  try {
    doc = parse(readFileSync(path, "utf8")) as { cron?: unknown };
  } catch (err) {
    log.warn(`crons.toml cannot be read, starting without crons: ${(err as Error).message}`);
    return [];
  }
  const entries: CronEntry[] = [];
  for (const raw of Array.isArray(doc.cron) ? (doc.cron as Record<string, unknown>[]) : []) {
    const schedule = String(raw.schedule ?? "");
    try {
      validateSchedule(schedule);
    } catch (err) {
      log.warn(`skipping cron ${String(raw.id)}: ${(err as Error).message}`);
      continue;
    }
    entries.push({
      id: BigInt(Number(raw.id ?? 0)),
      schedule,
      skill: String(raw.skill ?? ""),
      session: BigInt(Number(raw.session ?? 0)),
      quietStart: typeof raw.quiet_start === "string" ? raw.quiet_start : undefined,
      quietEnd: typeof raw.quiet_end === "string" ? raw.quiet_end : undefined,
      once: raw.once === true,
      agent: String(raw.agent ?? ""),
      sender: String(raw.sender ?? ""),
      file: String(raw.file ?? ""),
      ...(typeof raw.cwd === "string" && raw.cwd !== "" ? { cwd: raw.cwd } : {}),
    });
  }
  return entries;
}

export function saveCrons(path: string, entries: readonly CronEntry[]): void {
  const cron = entries.map((e) => ({
    id: Number(e.id),
    schedule: e.schedule,
    skill: e.skill,
    session: Number(e.session),
    ...(e.quietStart !== undefined ? { quiet_start: e.quietStart } : {}),
    ...(e.quietEnd !== undefined ? { quiet_end: e.quietEnd } : {}),
    once: e.once,
    agent: e.agent,
    sender: e.sender,
    file: e.file,
    ...(e.cwd !== undefined ? { cwd: e.cwd } : {}),
  }));
  writeFileAtomicSync(path, cron.length > 0 ? stringify({ cron }) + "\n" : "");
}
