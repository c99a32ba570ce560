// The cron timers (docs/cron.md#firing, docs/cron.md#lifetime): one per entry, sleeping until the
// next fire time; quiet hours skip a firing, `once` deletes after firing.
// Owned by the daemon: entries survive reloads and stop on shutdown.
import { inQuietWindow } from "./quiet.ts";
import { nextFire } from "./schedule.ts";
import { saveCrons, type CronEntry } from "./store.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

/** setTimeout's limit: longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CronSchedulerOptions {
  path: string;
  fire(entry: CronEntry): Promise<void>;
  log: RuntimeLog;
}

export class CronScheduler {
  private entries = new Map<bigint, CronEntry>();
  private timers = new Map<bigint, ReturnType<typeof setTimeout>>();
  private lastId = 0n;
  private stopped = false;

  constructor(private readonly options: CronSchedulerOptions) {}

  /** Starts the timers of entries loaded from disk. */
  start(entries: readonly CronEntry[]): void {
    for (const e of entries) {
      this.entries.set(e.id, e);
      if (e.id > this.lastId) this.lastId = e.id;
      this.arm(e);
    }
  }

  list(): CronEntry[] {
    return [...this.entries.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  create(entry: Omit<CronEntry, "id">): CronEntry {
    const created = { ...entry, id: ++this.lastId };
    this.entries.set(created.id, created);
    this.persist();
    this.arm(created);
    return created;
  }

  delete(id: bigint): boolean {
    if (!this.entries.delete(id)) return false;
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    this.persist();
    return true;
  }

  /** Updates what an entry resolves to (its session id after a restart). */
  retarget(id: bigint, session: bigint): void {
    const e = this.entries.get(id);
    if (e && e.session !== session) {
      e.session = session;
      this.persist();
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private arm(entry: CronEntry, after = new Date()): void {
    if (this.stopped) return;
    const at = nextFire(entry.schedule, after);
    if (!at) return;
    const wait = at.getTime() - Date.now();
    const timer = setTimeout(
      () => {
        if (Date.now() < at.getTime()) return this.arm(entry, after); // a long wait taken in steps
        void this.run(entry);
      },
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    this.timers.set(entry.id, timer);
  }

  private async run(entry: CronEntry): Promise<void> {
    if (!this.entries.has(entry.id)) return;
    const quiet = inQuietWindow(new Date(), entry.quietStart, entry.quietEnd);
    if (!quiet) {
      if (entry.once) this.delete(entry.id);
      try {
        await this.options.fire(entry);
      } catch (err) {
        this.options.log.warn(`cron ${entry.id} (/${entry.skill}) failed: ${(err as Error).message}`);
      }
    }
    // From now, not from `at`: a firing that ran long is not caught up (docs/cron.md#firing).
    if (this.entries.has(entry.id)) this.arm(entry);
  }

  private persist(): void {
    try {
      saveCrons(this.options.path, this.list());
    } catch (err) {
      this.options.log.warn(`could not write crons.toml: ${(err as Error).message}`);
    }
  }
}
