// How token counts and costs read on a terminal: `1.2k in · 340 out · $0.004`.

/** 340, 1.2k, 3.4M. */
export function tokenCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `$0.004`, `$0.0123`, `$12.50`: three significant digits below a dollar. */
export function dollars(amount: number): string {
  if (amount === 0) return "$0";
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  return `$${Number(amount.toPrecision(3))}`;
}

/** The cost of some steps: `no price` when none had one, marked when only some did. */
export function costLabel(costUsd: number, steps: number, unpricedSteps: number): string {
  if (steps > 0 && unpricedSteps === steps) return "no price";
  return unpricedSteps > 0 ? `${dollars(costUsd)} + no price` : dollars(costUsd);
}

/** The one line chat prints after an answer. */
export function usageLine(promptTokens: number, completionTokens: number, costUsd: number | undefined): string {
  const cost = costUsd === undefined ? "no price" : dollars(costUsd);
  return `${tokenCount(promptTokens)} in · ${tokenCount(completionTokens)} out · ${cost}`;
}

const RELATIVE = /^(\d+)([mhdw])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `7d`, `24h`, `30m`, `2w` → an RFC 3339 time that long before `now`; dates and times pass through. */
export function usageSince(text: string, now: Date = new Date()): string {
  const rel = RELATIVE.exec(text.trim());
  if (rel) return new Date(now.getTime() - Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS]).toISOString();
  if (/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(text.trim())) return text.trim();
  throw new Error(`'${text}' is not a time: use 7d, 24h, 30m, 2w, YYYY-MM-DD or an RFC 3339 time`);
}
