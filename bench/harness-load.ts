// Whether the bench process itself could be the bottleneck of a measurement:
// its own CPU time (clients, and the in-process fake provider) over the wall
// time of the measured loop. Near 1 (one core busy) the harness, not the
// daemon, sets the pace; well below, it waits on the daemon.
import { round } from "./stats.ts";

export interface HarnessLoad {
  /** The bench process's CPU over the loop's wall time (1 = one core always busy). */
  cpu_share: number;
  seconds: number;
}

/** Starts measuring; call the result when the loop is done. */
export function harnessLoad(): () => HarnessLoad {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const cpu = process.cpuUsage(cpu0);
    const ms = performance.now() - t0;
    return { cpu_share: round((cpu.user + cpu.system) / 1000 / ms, 2), seconds: round(ms / 1000, 1) };
  };
}
