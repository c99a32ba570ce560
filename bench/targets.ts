// The daemon's targets (issue 11), each next to a floor measured in the same
// run, as medians of interleaved runs (`bun run bench daemon`):
//   - cold start to first Pong vs. a compiled Bun hello world's start;
//   - idle VmRSS and private (RssAnon) memory;
//   - at 100 concurrent streams: daemon CPU per turn (/proc/<pid>/stat) and the
//     added first-chunk latency p50/p99 vs. a direct fetch of the same fake
//     from the same process (the harness floor), rounds alternating.
// The soak figures (10,000 turns, a minute idle, 1,000 concurrent) come from
// bench/soak.ts; run.ts puts both into one `targets` table.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { SOURCE_COMMAND, compiledBinary, spawnDaemon, stopDaemon, trackCleanup, waitForFirstPong, type BenchDaemon } from "./daemon.ts";
import { fetchFirstChunk, floorRound, latencySummary, streamRound } from "./send.ts";
import { memoryOf, type Memory } from "./soak.ts";
import { median, progress, round } from "./stats.ts";

export const DAEMON_TARGETS = {
  cold_start_ms: 50,
  idle_rss_mb: 45,
  idle_private_mb: 16,
  cpu_per_turn_ms_at_100: 0.4,
  first_chunk_p50_us_at_100: 1000,
  first_chunk_p99_vs_floor_at_100: 2,
  soak_private_growth_mb: 8,
};

export interface DaemonBenchOptions {
  /** Interleaved cold starts (hello world, daemon). */
  starts: number;
  /** Idle time before reading memory, in ms. */
  idleMs: number;
  /** Interleaved rounds of 100 streams (daemon round, harness floor round). */
  rounds: number;
  streams: number;
}

function daemonCommand(): { command: string[]; label: string } {
  const binary = compiledBinary();
  return binary ? { command: [binary], label: "compiled" } : { command: SOURCE_COMMAND, label: "source (no dist/crabtalk)" };
}

/** A compiled Bun hello world with the flags crabtalk is built with: the start floor. */
async function buildHello(): Promise<{ binary: string; release: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-bench-hello-"));
  const release = trackCleanup(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\nif (process.argv.includes("--stay")) setInterval(() => {}, 1 << 30);\n');
  const binary = join(dir, "hello");
  const proc = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", "--bytecode", join(dir, "hello.ts"), "--outfile", binary], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (proc.exitCode !== 0) throw new Error(`building the hello world failed: ${proc.stderr.toString()}`);
  return { binary, release };
}

/** A compiled Bun program that stays up doing nothing: the floor for idle memory. */
async function idleHelloMemory(binary: string, idleMs: number): Promise<Memory> {
  const proc = Bun.spawn([binary, "--stay"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  try {
    await Bun.sleep(idleMs);
    return memoryOf(proc.pid);
  } finally {
    proc.kill();
    await proc.exited;
  }
}

async function helloStart(binary: string): Promise<{ ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const proc = Bun.spawn([binary], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  await proc.exited;
  return { ms: performance.now() - t0, cpuMs: Number(proc.resourceUsage()?.cpuTime.total ?? 0) / 1000 };
}

/**
 * CPU a live process has used so far, all its threads, in ms, from the
 * scheduler's nanosecond counters (/proc/<pid>/task/<tid>/schedstat): a start
 * costs a few tens of ms, below what /proc/<pid>/stat's 10 ms ticks resolve.
 * Far less moved by a loaded machine than the wall time.
 */
export function threadsCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

/** utime + stime of a process in ms (/proc/<pid>/stat, clock ticks at 100 Hz). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After "pid (comm) ": state is field 3, utime 14, stime 15 → indexes 11, 12.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function coldStarts(options: DaemonBenchOptions, command: string[]) {
  const hello = await buildHello();
  const helloMs: number[] = [];
  const helloCpuMs: number[] = [];
  const daemonMs: number[] = [];
  const daemonCpuMs: number[] = [];
  const idle: Memory[] = [];
  const helloIdle: Memory[] = [];
  try {
    for (let i = 0; i < options.starts; i++) {
      const h = await helloStart(hello.binary);
      helloMs.push(h.ms);
      helloCpuMs.push(h.cpuMs);
      const d = spawnDaemon(command);
      try {
        daemonMs.push((await waitForFirstPong(d, 15_000, 1)) - d.spawnedAt);
        daemonCpuMs.push(threadsCpuMs(d.proc.pid));
        // Memory on a few of the runs (each costs idleMs).
        if (i < 3) {
          await Bun.sleep(options.idleMs);
          idle.push(memoryOf(d.proc.pid));
        }
      } finally {
        await stopDaemon(d);
      }
      if (i < 3) helloIdle.push(await idleHelloMemory(hello.binary, options.idleMs));
      progress(
        `daemon start ${i + 1}/${options.starts}: ${daemonMs.at(-1)!.toFixed(1)} ms, CPU ${daemonCpuMs.at(-1)!.toFixed(1)} ms (hello ${helloMs.at(-1)!.toFixed(1)} ms)`,
      );
    }
  } finally {
    await hello.release();
  }
  const startMedian = median(daemonMs);
  const helloMedian = median(helloMs);
  return {
    cold_start: {
      median_ms: round(startMedian, 1),
      hello_world_floor_ms: round(helloMedian, 1),
      ratio_to_floor: round(startMedian / helloMedian, 2),
      cpu_at_first_pong_ms: round(median(daemonCpuMs), 1),
      hello_world_cpu_ms: round(median(helloCpuMs), 1),
      runs: daemonMs.length,
    },
    idle_memory: {
      rss_mb: round(median(idle.map((m) => m.rss_mb)), 1),
      private_mb: round(median(idle.map((m) => m.private_mb)), 1),
      hello_world_floor: {
        rss_mb: round(median(helloIdle.map((m) => m.rss_mb)), 1),
        private_mb: round(median(helloIdle.map((m) => m.private_mb)), 1),
      },
      idle_ms: options.idleMs,
      samples: idle,
    },
  };
}

function fakeConfig(url: string): string {
  return `[provider.fake]\napi_key = "bench"\nbase_url = "${url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`;
}

/** CPU of a bare Bun process per streamed request to the same fake, as many at once (bench/fetch-floor.ts). */
async function fetchCpuFloor(url: string, k: number, rounds: number): Promise<number> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "fetch-floor.ts"), url, String(k), String(rounds)], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`fetch floor failed: ${err.slice(-500)}`);
  return JSON.parse(out).cpu_per_request_ms;
}

export async function concurrentStreams(options: DaemonBenchOptions, command: string[]) {
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  let d: BenchDaemon | undefined;
  const clients: Client[] = [];
  try {
    d = spawnDaemon(command, { config: fakeConfig(fake.url) });
    await waitForFirstPong(d);
    for (let i = 0; i < options.streams; i++) clients.push(new Client(await connect({ unix: d.socket })));
    const k = options.streams;
    // Warm-up: opens every sender's session, loads the SDK, compiles the hot code.
    for (let i = 0; i < 3; i++) {
      await streamRound(clients, fake, `warm${k}`);
      await floorRound(fake, k, () => fetchFirstChunk(fake), "floor");
    }
    await Bun.sleep(300); // background titles settle
    const added: number[] = [];
    const floor: number[] = [];
    const cpuPerTurn: number[] = [];
    let cpuTotal = 0;
    for (let r = 0; r < options.rounds; r++) {
      const before = cpuMs(d.proc.pid);
      added.push(...(await streamRound(clients, fake, `k${k}`)));
      const used = cpuMs(d.proc.pid) - before;
      cpuTotal += used;
      cpuPerTurn.push(used / k);
      floor.push(...(await floorRound(fake, k, () => fetchFirstChunk(fake), "floor")));
    }
    const a = latencySummary(added);
    const f = latencySummary(floor);
    const perTurn = cpuTotal / (options.rounds * k);
    const cpuFloor = await fetchCpuFloor(fake.url, k, options.rounds);
    progress(`daemon ${k} streams: added p50 ${a.p50_us} µs, p99 ${a.p99_us} µs (floor p99 ${f.p99_us} µs); CPU ${perTurn.toFixed(3)} ms/turn`);
    return {
      streams: k,
      rounds: options.rounds,
      cpu_per_turn_ms: round(perTurn, 3),
      cpu_per_turn_median_of_rounds_ms: round(median(cpuPerTurn), 3),
      cpu_floor_per_request_ms: round(cpuFloor, 3),
      cpu_ratio_to_floor: round(perTurn / cpuFloor, 2),
      first_chunk_added: a,
      harness_floor: f,
      p99_ratio_to_floor: round(a.p99_us / f.p99_us, 2),
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    if (d) await stopDaemon(d);
    await releaseFake();
  }
}

export async function runDaemonBench(options: DaemonBenchOptions) {
  const { command, label } = daemonCommand();
  progress(`daemon: ${label}`);
  const starts = await coldStarts(options, command);
  const streams = await concurrentStreams(options, command);
  return { daemon: label, ...starts, at_100_streams: streams };
}

const signed = (n: number) => (n < 0 ? `${n}` : `+${n}`);

/** One row per daemon target: figure, floor, ratio, target, met. */
/** The figures of bench/soak.ts's report that the table reads. */
interface SoakFigures {
  turns: number;
  idle: Memory;
  warm_after_100_turns?: Memory;
  after_idle: { idle_ms: number; private_growth_mb: number; private_growth_since_warm_mb: number };
  burst: { opened: number; completed: number; failed: number };
}

export function targetTable(daemon?: Awaited<ReturnType<typeof runDaemonBench>>, soak?: SoakFigures) {
  const rows: Array<{ target: string; figure: string; floor?: string; goal: string; met: boolean }> = [];
  const T = DAEMON_TARGETS;
  if (daemon) {
    const c = daemon.cold_start;
    rows.push({
      target: "cold start to first Pong (median)",
      figure: `${c.median_ms} ms (CPU ${c.cpu_at_first_pong_ms} ms)`,
      floor: `hello world ${c.hello_world_floor_ms} ms, CPU ${c.hello_world_cpu_ms} ms (×${c.ratio_to_floor})`,
      goal: `≤ ${T.cold_start_ms} ms`,
      met: c.median_ms <= T.cold_start_ms,
    });
    const m = daemon.idle_memory;
    const h = m.hello_world_floor;
    rows.push({
      target: "idle VmRSS",
      figure: `${m.rss_mb} MiB`,
      floor: `idle hello world ${h.rss_mb} MiB (×${round(m.rss_mb / h.rss_mb, 2)})`,
      goal: `≤ ${T.idle_rss_mb} MiB`,
      met: m.rss_mb <= T.idle_rss_mb,
    });
    rows.push({
      target: "idle private (RssAnon)",
      figure: `${m.private_mb} MiB`,
      floor: `idle hello world ${h.private_mb} MiB (×${round(m.private_mb / h.private_mb, 2)})`,
      goal: `≤ ${T.idle_private_mb} MiB`,
      met: m.private_mb <= T.idle_private_mb,
    });
    const s = daemon.at_100_streams;
    rows.push({
      target: "daemon CPU per turn, 100 streams",
      figure: `${s.cpu_per_turn_ms} ms`,
      floor: `bare fetch of the fake ${s.cpu_floor_per_request_ms} ms (×${s.cpu_ratio_to_floor})`,
      goal: `≤ ${T.cpu_per_turn_ms_at_100} ms`,
      met: s.cpu_per_turn_ms <= T.cpu_per_turn_ms_at_100,
    });
    rows.push({
      target: "added first-chunk p50, 100 streams",
      figure: `${s.first_chunk_added.p50_us} µs`,
      floor: `harness p50 ${s.harness_floor.p50_us} µs`,
      goal: `≤ ${T.first_chunk_p50_us_at_100} µs`,
      met: s.first_chunk_added.p50_us <= T.first_chunk_p50_us_at_100,
    });
    rows.push({
      target: "added first-chunk p99, 100 streams",
      figure: `${s.first_chunk_added.p99_us} µs`,
      floor: `harness p99 ${s.harness_floor.p99_us} µs (×${s.p99_ratio_to_floor})`,
      goal: `≤ ${T.first_chunk_p99_vs_floor_at_100}× floor`,
      met: s.p99_ratio_to_floor <= T.first_chunk_p99_vs_floor_at_100,
    });
  }
  if (soak) {
    const g = soak.after_idle;
    rows.push({
      target: `private after ${soak.turns} turns + ${g.idle_ms / 1000} s idle`,
      figure: `${signed(g.private_growth_mb)} MiB vs idle, ${signed(g.private_growth_since_warm_mb)} MiB vs warm`,
      floor: `idle ${soak.idle.private_mb} MiB, warm ${soak.warm_after_100_turns?.private_mb} MiB`,
      goal: `≤ +${T.soak_private_growth_mb} MiB vs idle`,
      met: g.private_growth_mb <= T.soak_private_growth_mb,
    });
    const b = soak.burst;
    rows.push({
      target: `${b.completed + b.failed} concurrent streams after the soak`,
      figure: `${b.opened} opened, ${b.completed} completed, ${b.failed} failed`,
      goal: "all open, all complete",
      met: b.failed === 0 && b.completed === b.opened,
    });
  }
  return rows;
}
