// What `crabtalk stats` prints, apart from the command so the fast path
// (src/cli/fast) prints the same without loading the full CLI.
import type { DaemonStats } from "../protocol/gen/crabtalk_pb.ts";

export function formatDuration(secs: number): string {
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = secs % 60;
  return h > 0 ? `${h}h ${m}m ${s}s` : m > 0 ? `${m}m ${s}s` : `${s}s`;
}

/** The stats as one JSON line or as aligned lines, without the final newline. */
export function statsText(stats: DaemonStats, json: boolean): string {
  const view = {
    uptime_secs: Number(stats.uptimeSecs),
    active_sessions: stats.activeSessions,
    registered_agents: stats.registeredAgents,
    active_model: stats.activeModel,
    version: stats.version,
    resident_bytes: Number(stats.residentBytes),
    private_bytes: Number(stats.privateBytes),
  };
  if (json) return JSON.stringify(view);
  return [
    `uptime:            ${formatDuration(view.uptime_secs)}`,
    `active sessions:   ${view.active_sessions}`,
    `registered agents: ${view.registered_agents}`,
    `active model:      ${view.active_model || "(none: set [system.crab] model)"}`,
    `version:           ${view.version || "unknown"}`,
    `memory:            ${memoryText(stats)}`,
  ].join("\n");
}

/** `42.1 MiB resident, 30.5 MiB private`; "unknown" from a daemon that does not report it. */
export function memoryText(stats: Pick<DaemonStats, "residentBytes" | "privateBytes">): string {
  const mib = (b: bigint) => `${(Number(b) / 1048576).toFixed(1)} MiB`;
  if (stats.residentBytes === 0n) return "unknown";
  return stats.privateBytes === 0n ? `${mib(stats.residentBytes)} resident` : `${mib(stats.residentBytes)} resident, ${mib(stats.privateBytes)} private`;
}
