// Giving memory back to the OS once something large has left it (idle
// sessions unloaded, the search index dropped), rather than at the next
// allocation spike. When no session is left in memory the daemon is idle: then
// the engine also drops its compiled code (Bun.shrink), which a long-running
// daemon otherwise keeps at its high-water mark (measured: after 2,000 turns
// and every session unloaded, private memory +17 MiB over a fresh daemon with a
// full collection, +4 MiB with the shrink). The next turn compiles again.
import type { SessionTable } from "../runtime/sessions.ts";

export function releaseMemory(sessions: SessionTable): void {
  if (sessions.size === 0) Bun.shrink();
  else Bun.gc(true);
}
