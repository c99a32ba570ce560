// Cold starts of two or more daemon commands, interleaved (one start of each in
// turn), each with its CPU at the first Pong (all threads) and idle memory:
// compares a change to the daemon's start with the build before it on a
// loaded machine, where wall times move with the load and CPU far less.
// Usage: bun bench/start-ab.ts [--runs N] [--idle-ms MS] [--config FILE] CMD [CMD...]
//   --config: a config.toml for every daemon (default: none, as `bench daemon`);
//   each CMD a binary, or "source" for `bun src/main.ts` of this tree.
import { SOURCE_COMMAND, spawnDaemon, stopDaemon, waitForFirstPong } from "./daemon.ts";
import { memoryOf } from "./soak.ts";
import { median, progress, round } from "./stats.ts";
import { threadsCpuMs } from "./targets.ts";

const args = process.argv.slice(2);
let runs = 15;
let idleMs = 2000;
let config: string | undefined;
const commands: string[][] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--idle-ms") idleMs = Number(args[++i]);
  else if (args[i] === "--config") config = await Bun.file(args[++i]).text();
  else commands.push(args[i] === "source" ? SOURCE_COMMAND : [args[i]]);
}
if (commands.length === 0) throw new Error("usage: bun bench/start-ab.ts [--runs N] [--idle-ms MS] CMD [CMD...]");

const samples = commands.map(() => ({ wall: [] as number[], cpu: [] as number[], rss: [] as number[], priv: [] as number[] }));
for (let r = 0; r < runs; r++) {
  for (const [i, command] of commands.entries()) {
    const d = spawnDaemon(command, { config });
    try {
      samples[i].wall.push((await waitForFirstPong(d, 15_000, 1)) - d.spawnedAt);
      samples[i].cpu.push(threadsCpuMs(d.proc.pid));
      if (idleMs > 0) {
        await Bun.sleep(idleMs);
        const m = memoryOf(d.proc.pid);
        samples[i].rss.push(m.rss_mb);
        samples[i].priv.push(m.private_mb);
      }
    } finally {
      await stopDaemon(d);
    }
  }
  progress(`round ${r + 1}/${runs}: ${samples.map((s) => `${s.wall.at(-1)!.toFixed(1)} ms / CPU ${s.cpu.at(-1)!.toFixed(1)} ms`).join("  |  ")}`);
}
const report = commands.map((command, i) => ({
  command: command.join(" "),
  wall_ms: round(median(samples[i].wall), 1),
  cpu_at_first_pong_ms: round(median(samples[i].cpu), 1),
  idle_rss_mb: samples[i].rss.length ? round(median(samples[i].rss), 1) : null,
  idle_private_mb: samples[i].priv.length ? round(median(samples[i].priv), 1) : null,
}));
console.log(JSON.stringify(report, null, 2));
