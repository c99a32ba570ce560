// Daemon CPU per turn, added first-chunk latency (the fake's send to the
// client's receipt) and each client's wait from its request to its first
// chunk, at K concurrent streams, of two source trees side by side: both
// daemons run at once against one fake provider and take their rounds in turn
// (A B B A …), so a load change on the machine hits both alike. For
// before/after figures of a change.
// Usage: bun bench/ab.ts --base DIR [--other DIR2] [--rounds N] [--streams K]
//   DIR: another checkout of crabtalk (its src/main.ts runs as daemon A); B is
//   this tree, or DIR2. The second daemon comes out a few per cent dearer even
//   when both are the same code: run it both ways round and compare the ratios.
//   DIR or DIR2 may instead be a compiled binary (a file): it runs as it is, so
//   that two builds (`bun run build`, copied aside) are compared.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { type BenchDaemon, MAIN, spawnDaemon, stopAll, stopDaemon, trackCleanup, waitForFirstPong } from "./daemon.ts";
import { latencySummary, streamRound } from "./send.ts";
import { median, progress, round } from "./stats.ts";
import { cpuMs } from "./targets.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const base = arg("--base");
if (!base) throw new Error("usage: bun bench/ab.ts --base DIR [--rounds N] [--streams K]");
const rounds = Number(arg("--rounds") ?? 40);
const k = Number(arg("--streams") ?? 100);

interface Side {
  name: string;
  d: BenchDaemon;
  clients: Client[];
  cpu: number[];
  added: number[];
  /** Each client's wait from its request to its first chunk, ms. */
  waits: number[];
}

const fake = await startFakeOpenAI();
trackCleanup(() => fake.stop());
const config = `[provider.fake]\napi_key = "bench"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`;
const sides: Side[] = [];
try {
  const command = (where: string | undefined): string[] => {
    if (!where) return [process.execPath, MAIN];
    const path = resolve(where);
    return statSync(path).isFile() ? [path] : [process.execPath, join(path, "src/main.ts")];
  };
  for (const [name, cmd] of [
    ["A (base)", command(base)],
    ["B", command(arg("--other"))],
  ] as const) {
    const d = spawnDaemon(cmd, { config });
    await waitForFirstPong(d);
    const clients: Client[] = [];
    for (let i = 0; i < k; i++) clients.push(new Client(await connect({ unix: d.socket })));
    sides.push({ name, d, clients, cpu: [], added: [], waits: [] });
  }
  for (const s of sides) for (let i = 0; i < 3; i++) await streamRound(s.clients, fake, `warm-${s.name}`);
  await Bun.sleep(300); // background titles settle
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      const before = cpuMs(s.d.proc.pid);
      s.added.push(...(await streamRound(s.clients, fake, `r-${s.name}`, s.waits)));
      s.cpu.push((cpuMs(s.d.proc.pid) - before) / k);
    }
  }
  const result = sides.map((s) => {
    const a = latencySummary(s.added);
    const w = latencySummary(s.waits.map((ms) => ms * 1000));
    const total = s.cpu.reduce((x, y) => x + y, 0) / s.cpu.length;
    progress(
      `${s.name}: CPU ${total.toFixed(3)} ms/turn, added p50 ${a.p50_us} µs, p99 ${a.p99_us} µs; request to first chunk p50 ${w.p50_us} µs, p99 ${w.p99_us} µs`,
    );
    return {
      side: s.name,
      cpu_per_turn_ms: round(total, 3),
      cpu_per_turn_median_of_rounds_ms: round(median(s.cpu), 3),
      first_chunk_added: a,
      request_to_first_chunk: w,
    };
  });
  console.log(JSON.stringify({ streams: k, rounds, sides: result, b_over_a_cpu: round(result[1]!.cpu_per_turn_ms / result[0]!.cpu_per_turn_ms, 3) }, null, 2));
} finally {
  for (const s of sides) {
    await Promise.allSettled(s.clients.map((c) => c.close()));
    await stopDaemon(s.d);
  }
  await stopAll();
}
