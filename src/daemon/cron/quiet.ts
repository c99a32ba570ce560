// Quiet hours of a cron entry (docs/cron.md#firing), in the daemon's local time.

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

function minutes(value: string | undefined): number | undefined {
  const m = value === undefined ? null : HHMM.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

export function isValidTime(value: string): boolean {
  return HHMM.test(value);
}

/** [start, end); wraps midnight when start > end; empty when equal or either bound is unset or invalid. */
export function inQuietWindow(now: Date, start?: string, end?: string): boolean {
  const s = minutes(start);
  const e = minutes(end);
  if (s === undefined || e === undefined || s === e) return false;
  const t = now.getHours() * 60 + now.getMinutes();
  return s < e ? t >= s && t < e : t >= s || t < e;
}
