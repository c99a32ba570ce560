// The daemon's side of usage accounting: every step the runtime reports goes
// to the ledger, today's spend is kept for the daily budget, and subscribers
// hear once a day when it passes 80 % of `[system.budget] daily_usd`.
import { localDay } from "../../session/conversations.ts";
import type { StepUsage, UsageRecorder } from "../../runtime/usage/step.ts";
import { usd } from "../../runtime/usage/budget.ts";
import { appendLedger, readLedger, toLedgerLine } from "./ledger.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export const DAILY_WARNING_SHARE = 0.8;

export interface RecorderOptions {
  /** The daily budget in force now (it follows reloads). */
  dailyLimitUsd(): number | undefined;
  log: RuntimeLog;
  /** Today's spend passed the warning share of the daily budget. */
  budgetWarning(step: StepUsage, message: string): void;
}

export class LedgerRecorder implements UsageRecorder {
  /** The local day `today` sums; "" until the first use (the first local-time call loads the time zone, ms at start). */
  private day = "";
  private today = 0;
  private warnedDay = "";

  private constructor(
    readonly path: string,
    private readonly options: RecorderOptions,
  ) {}

  /** Sums today's spend from the ledger, so a restart does not reset the daily budget. */
  static async open(path: string, options: RecorderOptions): Promise<LedgerRecorder> {
    const recorder = new LedgerRecorder(path, options);
    try {
      const lines = await readLedger(path);
      if (lines.length > 0) recorder.day = localDay(new Date());
      for (const line of lines) {
        if (line.cost_usd !== null && localDay(new Date(line.time)) === recorder.day) recorder.today += line.cost_usd;
      }
    } catch (err) {
      options.log.warn(`usage ledger ${path} unreadable: ${(err as Error).message}`);
    }
    return recorder;
  }

  spentToday(): number {
    this.rollOver();
    return this.today;
  }

  async record(step: StepUsage): Promise<void> {
    this.rollOver();
    if (step.costUsd !== undefined) this.today += step.costUsd;
    try {
      await appendLedger(this.path, toLedgerLine(step));
    } catch (err) {
      this.options.log.warn(`could not append to the usage ledger ${this.path}: ${(err as Error).message}`);
    }
    const limit = this.options.dailyLimitUsd();
    if (limit === undefined || limit <= 0 || this.warnedDay === this.day) return;
    if (this.today < limit * DAILY_WARNING_SHARE) return;
    this.warnedDay = this.day;
    const share = Math.round((this.today / limit) * 100);
    this.options.budgetWarning(step, `daily budget: ${usd(this.today)} of ${usd(limit)} spent today (${share}%)`);
  }

  private rollOver(): void {
    const day = localDay(new Date());
    if (day === this.day) return;
    this.day = day;
    this.today = 0;
  }
}
