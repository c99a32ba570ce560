// How tokens and the remote listener's state read on a terminal
// (`crabtalk tokens list`, `crabtalk remote status`).
import type { RemoteStatus, TokenInfo } from "../../protocol/gen/crabtalk_pb.ts";
import { formatTable } from "../table.ts";

/** Unix milliseconds as local `YYYY-MM-DD HH:MM`; 0 as `zero`. */
export function localTime(ms: bigint, zero: string): string {
  if (ms === 0n) return zero;
  const d = new Date(Number(ms));
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function expiry(ms: bigint, now: number): string {
  const when = localTime(ms, "never");
  return ms !== 0n && Number(ms) <= now ? `expired ${when}` : when;
}

export function tokensTable(tokens: readonly TokenInfo[], now = Date.now()): string {
  if (tokens.length === 0) return "no tokens (crabtalk tokens create NAME --scope read|operate|admin)";
  const rows = tokens.map((t) => [t.name, t.scope, localTime(t.createdMs, ""), localTime(t.lastUsedMs, "never"), expiry(t.expiresMs, now)]);
  return formatTable(["NAME", "SCOPE", "CREATED", "LAST USED", "EXPIRES"], rows);
}

/** `created token 'ci' (scope read, expires 2025-01-31 12:00)`. */
export function createdLine(info: TokenInfo | undefined, name: string, scope: string): string {
  const expires = info && info.expiresMs !== 0n ? `expires ${localTime(info.expiresMs, "")}` : "never expires";
  return `created token '${info?.name ?? name}' (scope ${info?.scope ?? scope}, ${expires})`;
}

export function statusText(s: RemoteStatus): string {
  if (!s.enabled) return "remote access: off (crabtalk remote enable turns it on)";
  const state = s.error ? `enabled but not serving: ${s.error}` : "on";
  const connections = s.connections.length ? s.connections.map((c) => `${c.tokenName} ${c.count}`).join(", ") : "none";
  const lines = [
    ["remote access", state],
    ["address", s.listen || "-"],
    ["url", s.url || "-"],
    ["tls", s.tls ? "yes" : "no (loopback only)"],
    ...(s.fingerprint ? [["fingerprint", `SHA-256 ${s.fingerprint}`]] : []),
    ["connections", connections],
  ];
  return lines.map(([k, v]) => `${`${k}:`.padEnd(15)}${v}`).join("\n");
}
