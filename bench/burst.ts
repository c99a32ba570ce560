// First-chunk latency at K concurrent streams as a client sees it (issue 23),
// measured the way an independent harness does:
//   - K client connections to the daemon's Unix socket, in this one process;
//   - each stream a new turn in an existing conversation (one sender per
//     connection; the conversations are created and warmed first);
//   - a fake provider in its own process (bench/burst-fake.ts) that holds
//     every answer until all K requests arrived, then writes each first chunk
//     in one loop, stamping it with the time of its own write;
//   - the floor in the same run: the same client process and fake, the daemon
//     replaced by a direct fetch of the fake (what a bare client would see);
//     daemon and floor rounds interleaved.
// Latency per stream = the client's time at its first chunk − the stamp in
// that chunk (one clock: performance.timeOrigin + now, the same in both
// processes). Figures are medians over rounds of each round's p50 and p99.
// Usage:
//   bun bench/burst.ts [--rounds N] [--streams K] [--source] [--no-hold] [--rest-after-ms MS] [--profile DIR]
// --no-hold makes the fake answer each request as soon as it arrives (what
// bench/send.ts's fake does); --rest-after-ms MS sends the rest of each answer
// (its end) MS after the first chunks, not at once; --profile DIR runs the source daemon under
// `bun --cpu-prof` (100 µs samples) and writes DIR/bursts.json, the measured
// bursts' time windows: `bun bench/cpuprofile.ts DIR/*.cpuprofile --windows
// DIR/bursts.json` shows where the daemon's time in the bursts goes
// (profiling inflates every figure).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { MAIN, SOURCE_COMMAND, compiledBinary, spawnDaemon, stopAll, stopDaemon, trackCleanup, waitForFirstPong } from "./daemon.ts";
import { max, median, min, percentile, progress, round, sorted } from "./stats.ts";
import { cpuMs } from "./targets.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const now = () => performance.timeOrigin + performance.now();

/** The fake's stamp in a first chunk ("t<ms>"), or a clear error. */
function stampOf(content: string, label: string): number {
  const t = content.startsWith("t") ? Number(content.slice(1)) : NaN;
  if (!Number.isFinite(t)) throw new Error(`${label}: first chunk ${JSON.stringify(content)} carries no stamp`);
  return t;
}

async function startFake(k: number, hold: boolean, restAfterMs: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const flags = [...(hold ? [] : ["--no-hold"]), ...(restAfterMs > 0 ? ["--rest-after-ms", String(restAfterMs)] : [])];
  const proc = Bun.spawn([process.execPath, resolve(import.meta.dir, "burst-fake.ts"), String(k), ...flags], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`burst fake exited before listening (code ${await proc.exited})`);
    text += new TextDecoder().decode(value);
  }
  const { port } = JSON.parse(text.split("\n")[0]) as { port: number };
  const stop = trackCleanup(async () => {
    proc.kill();
    await proc.exited;
  });
  return { url: `http://127.0.0.1:${port}/v1`, stop };
}

/** One stream through the daemon: when its first chunk left the fake and when it reached the client (epoch ms). */
async function daemonStream(client: Client, sender: string): Promise<{ stamp: number; at: number }> {
  let latency: { stamp: number; at: number } | undefined;
  for await (const e of client.stream({ agent: "crab", content: "hi", sender })) {
    if (e.event.case === "chunk" && latency === undefined) {
      const at = now();
      latency = { stamp: stampOf(e.event.value.content, sender), at };
    } else if (e.event.case === "end" && e.event.value.error !== "") {
      throw new Error(`stream ${sender} ended with error: ${e.event.value.error}`);
    }
  }
  if (latency === undefined) throw new Error(`stream ${sender}: no chunk`);
  return latency;
}

const REQUEST = JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: "hi" }] });

/** One stream straight to the fake (no daemon): its first chunk's latency in ms. */
async function directStream(url: string): Promise<number> {
  const res = await fetch(`${url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: REQUEST });
  if (!res.ok || !res.body) throw new Error(`direct fetch of the fake: HTTP ${res.status}`);
  const decoder = new TextDecoder();
  let seen = "";
  let latency: number | undefined;
  for await (const part of res.body) {
    if (latency !== undefined) continue;
    seen += decoder.decode(part, { stream: true });
    const m = /"content":"(t[0-9.]+)"/.exec(seen);
    if (m) latency = now() - stampOf(m[1], "direct");
  }
  if (latency === undefined) throw new Error("direct fetch of the fake: no stamped chunk");
  return latency;
}

interface Round {
  p50: number;
  p99: number;
  min: number;
  max: number;
}

function summarise(latencies: number[]): Round {
  const s = sorted(latencies);
  return { p50: percentile(s, 50, true), p99: percentile(s, 99, true), min: min(s), max: max(s) };
}

const ms = (x: number) => round(x, 2);

export async function runBurst(options: { rounds: number; streams: number; hold: boolean; restAfterMs: number; command: string[]; windowsFile?: string }) {
  const k = options.streams;
  const fake = await startFake(k, options.hold, options.restAfterMs);
  const d = spawnDaemon(options.command, {
    config: `[provider.fake]\napi_key = "bench"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`,
  });
  const clients: Client[] = [];
  try {
    await waitForFirstPong(d);
    for (let i = 0; i < k; i++) clients.push(new Client(await connect({ unix: d.socket })));
    // Each measured round's burst, from the fake's first write to the last first chunk a client got.
    const windows: Array<[number, number]> = [];
    const daemonRound = async () => {
      const streams = await Promise.all(clients.map((c, i) => daemonStream(c, `burst-${i}`)));
      windows.push([min(streams.map((s) => s.stamp)), max(streams.map((s) => s.at))]);
      return streams.map((s) => s.at - s.stamp);
    };
    const floorRound = () => Promise.all(Array.from({ length: k }, () => directStream(fake.url)));
    // The conversations are created (and titled) by the first round; the next ones warm the hot code.
    for (let i = 0; i < 4; i++) {
      await daemonRound();
      await floorRound();
    }
    await Bun.sleep(300);
    windows.length = 0;
    const daemon: Round[] = [];
    const floor: Round[] = [];
    const cpuPerTurn: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const before = cpuMs(d.proc.pid);
      daemon.push(summarise(await daemonRound()));
      cpuPerTurn.push((cpuMs(d.proc.pid) - before) / k);
      floor.push(summarise(await floorRound()));
    }
    if (options.windowsFile) {
      mkdirSync(dirname(options.windowsFile), { recursive: true });
      writeFileSync(options.windowsFile, JSON.stringify(windows));
    }
    const m = (rs: Round[], key: keyof Round) => median(rs.map((x) => x[key]));
    const result = {
      streams: k,
      rounds: options.rounds,
      fake:
        (options.hold ? `holds every answer until all ${k} requests arrived, then writes the first chunks in one loop` : "answers each request at once") +
        (options.restAfterMs > 0 ? `; the rest of each answer ${options.restAfterMs} ms later` : ""),
      through_daemon_ms: { p50: ms(m(daemon, "p50")), p99: ms(m(daemon, "p99")), min: ms(m(daemon, "min")), max: ms(m(daemon, "max")) },
      floor_ms: { p50: ms(m(floor, "p50")), p99: ms(m(floor, "p99")), min: ms(m(floor, "min")), max: ms(m(floor, "max")) },
      added_p50_ms: ms(m(daemon, "p50") - m(floor, "p50")),
      added_p99_ms: ms(m(daemon, "p99") - m(floor, "p99")),
      p99_ratio_to_floor: round(m(daemon, "p99") / m(floor, "p99"), 2),
      // The spread of one round's first chunks over its streams: the daemon's serial time per turn of the burst.
      burst_spread_per_turn_ms: round((m(daemon, "max") - m(daemon, "min")) / (k - 1), 3),
      floor_spread_per_stream_ms: round((m(floor, "max") - m(floor, "min")) / (k - 1), 3),
      daemon_cpu_per_turn_ms: round(median(cpuPerTurn), 3),
    };
    progress(
      `burst K=${k} (${options.hold ? "held" : "not held"}): through daemon p50 ${result.through_daemon_ms.p50} ms, p99 ${result.through_daemon_ms.p99} ms; ` +
        `floor p50 ${result.floor_ms.p50} ms, p99 ${result.floor_ms.p99} ms; added p50 ${result.added_p50_ms} ms, p99 ${result.added_p99_ms} ms (×${result.p99_ratio_to_floor})`,
    );
    return result;
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await stopDaemon(d);
    await fake.stop();
  }
}

if (import.meta.main) {
  const profileDir = arg("--profile");
  let command: string[];
  if (profileDir) command = [process.execPath, "--cpu-prof", "--cpu-prof-interval", "100", `--cpu-prof-dir=${resolve(profileDir)}`, MAIN];
  else if (process.argv.includes("--source")) command = SOURCE_COMMAND;
  else command = compiledBinary() ? [compiledBinary()!] : SOURCE_COMMAND;
  try {
    const result = await runBurst({
      rounds: Number(arg("--rounds") ?? 20),
      streams: Number(arg("--streams") ?? 100),
      hold: !process.argv.includes("--no-hold"),
      restAfterMs: Number(arg("--rest-after-ms") ?? 0),
      command,
      windowsFile: profileDir ? join(resolve(profileDir), "bursts.json") : undefined,
    });
    console.log(JSON.stringify({ command: command.join(" ").replace(process.execPath, "bun"), ...result }, null, 2));
  } finally {
    await stopAll();
  }
}
