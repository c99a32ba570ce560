// Small display helpers shared by the views.

export function duration(secs: number): string {
  if (secs < 60) return `${secs}s`;
  if (secs < 3600) return `${Math.floor(secs / 60)}m`;
  if (secs < 86400) return `${Math.floor(secs / 3600)}h ${Math.floor((secs % 3600) / 60)}m`;
  return `${Math.floor(secs / 86400)}d`;
}

export function usd(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}

export function tokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** A message for an error thrown by a request (DaemonError carries the daemon's code). */
export function errorText(err: unknown): string {
  if (err && typeof err === "object" && "code" in err && "message" in err) return `${String(err.message)} (${String(err.code)})`;
  return err instanceof Error ? err.message : String(err);
}
