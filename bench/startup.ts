// Cold start to first Ping, and idle RSS, for the source run and (when built)
// the compiled binary. Each run uses a fresh temporary CRABTALK_HOME.
import { SOURCE_COMMAND, compiledBinary, rssMb, spawnDaemon, stopDaemon, waitForFirstPong } from "./daemon.ts";
import { max, median, min, progress, round } from "./stats.ts";

export interface StartupOptions {
  /** Cold starts per variant. */
  runs: number;
  /** How many of those runs also sample idle RSS (each costs `idleMs`). */
  rssRuns: number;
  /** Idle time before reading RSS, in ms. */
  idleMs: number;
  /**
   * Start the next cold start while the previous daemon is still shutting
   * down (it is SIGTERMed at once either way). Saves the daemon's shutdown
   * time per run; all stops are awaited before the variant returns.
   */
  overlapStops: boolean;
}

export interface VariantResult {
  command: string[];
  cold_start_to_first_ping_ms: { median: number; min: number; max: number; runs: number; samples: number[] };
  /** Median over the sampled runs; null when /proc is unavailable. */
  idle_rss_mb: number | null;
  idle_rss_samples_mb: number[];
  /** SIGTERM → process exit, median over runs (not a target; shown because it bounds restarts). */
  sigterm_to_exit_ms: { median: number; max: number } | null;
}

export const TARGETS = { cold_start_ms: 100, idle_rss_mb: 50 };

async function runVariant(label: string, command: string[], options: StartupOptions): Promise<VariantResult> {
  const times: number[] = [];
  const rss: number[] = [];
  const stopTimes: number[] = [];
  const stopping: Promise<void>[] = [];
  try {
    for (let i = 0; i < options.runs; i++) {
      const d = spawnDaemon(command);
      const stop = () =>
        stopDaemon(d).then((ms) => {
          if (ms !== undefined) stopTimes.push(ms);
        });
      let stopped: Promise<void> | undefined;
      try {
        const pong = await waitForFirstPong(d);
        const ms = pong - d.spawnedAt;
        times.push(ms);
        let note = "";
        if (i < options.rssRuns) {
          await Bun.sleep(options.idleMs);
          const mb = rssMb(d.proc.pid);
          if (mb !== undefined) {
            rss.push(mb);
            note = `, idle RSS ${mb.toFixed(1)} MB`;
          }
        }
        progress(`startup ${label} run ${i + 1}/${options.runs}: ${ms.toFixed(1)} ms to first Pong${note}`);
      } finally {
        stopped = stop();
        stopping.push(stopped);
      }
      if (!options.overlapStops) await stopped;
    }
  } finally {
    await Promise.allSettled(stopping);
  }
  return {
    command: command.map((part) => (part === process.execPath ? "bun" : part.replace(process.cwd() + "/", ""))),
    cold_start_to_first_ping_ms: {
      median: round(median(times), 1),
      min: round(min(times), 1),
      max: round(max(times), 1),
      runs: times.length,
      samples: times.map((t) => round(t, 1)),
    },
    idle_rss_mb: rss.length > 0 ? round(median(rss), 1) : null,
    idle_rss_samples_mb: rss.map((r) => round(r, 1)),
    sigterm_to_exit_ms: stopTimes.length > 0 ? { median: round(median(stopTimes), 0), max: round(max(stopTimes), 0) } : null,
  };
}

export async function runStartup(options: StartupOptions) {
  const source = await runVariant("source", SOURCE_COMMAND, options);
  const binary = compiledBinary();
  let compiled: VariantResult | { skipped: string };
  if (binary) {
    compiled = await runVariant("compiled", [binary], options);
  } else {
    compiled = { skipped: "dist/crabtalk not found (run `bun run build` first)" };
    progress("startup compiled: skipped, dist/crabtalk not found");
  }
  const meets = (v: VariantResult | { skipped: string }) =>
    "skipped" in v
      ? null
      : {
          cold_start: v.cold_start_to_first_ping_ms.median <= TARGETS.cold_start_ms,
          idle_rss: v.idle_rss_mb === null ? null : v.idle_rss_mb <= TARGETS.idle_rss_mb,
        };
  return {
    source,
    compiled,
    targets: TARGETS,
    meets_targets: { source: meets(source), compiled: meets(compiled) },
  };
}
