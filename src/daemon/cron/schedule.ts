// Cron schedules (docs/cron.md#schedules): 5-field, or 6/7-field with seconds (and
// year), validated on create and on load; fire times computed in UTC.
import { Cron } from "croner";

export class ScheduleError extends Error {}

/** Throws ScheduleError `invalid cron schedule '<s>': <reason>` for a bad expression. */
export function validateSchedule(schedule: string): void {
  try {
    new Cron(schedule, { paused: true, timezone: "Etc/UTC" }).stop();
  } catch (err) {
    const reason = (err as Error).message.replace(/^CronPattern: /, "");
    throw new ScheduleError(`invalid cron schedule '${schedule}': ${reason}`);
  }
}

/** The next fire time strictly after `after`, or undefined when there is none. */
export function nextFire(schedule: string, after: Date = new Date()): Date | undefined {
  const cron = new Cron(schedule, { paused: true, timezone: "Etc/UTC" });
  try {
    return cron.nextRun(after) ?? undefined;
  } finally {
    cron.stop();
  }
}
