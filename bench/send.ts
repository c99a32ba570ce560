// End to end against a real daemon whose only provider is an instant fake
// OpenAI server (empty script → "ok"): `crabtalk send` one-shot wall time with
// the compiled binary, and the daemon's added latency to the first chunk at 1
// and 100 concurrent protocol streams.
import { rmSync } from "node:fs";
import { createOpenAIAdapter } from "../src/model/openai/adapter.ts";
import type { Model } from "../src/model/types.ts";
import type { Client } from "../src/protocol/client.ts";
import { startDaemon, tempHome, type TestDaemon } from "../test/support/daemon.ts";
import type { FakeLLM } from "../test/support/fake-llm.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { REPO, TIMEOUT, compiledBinary, trackCleanup, withTimeout } from "./daemon.ts";
import { max, median, min, percentile, progress, round, sorted } from "./stats.ts";

export interface SendOptions {
  /** Timed `crabtalk send hello` runs (after `warmupSends` untimed ones). */
  sends: number;
  warmupSends: number;
  /** Measured rounds of 1 stream and of 100 concurrent streams (after one warm-up round each). */
  roundsK1: number;
  roundsK100: number;
}

export const TARGETS = { send_median_ms: 30, first_chunk_added_p99_us_at_100_streams: 2000 };

/** Clock shared with the fake (fake-llm.ts `now()`): same process, same origin. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

function config(fakeUrl: string): string {
  return `[provider.fake]
api_key = "bench"
base_url = "${fakeUrl}"
models = ["fake-model"]

[system.crab]
model = "fake-model"
`;
}

async function exec(argv: string[], env?: Record<string, string>, cwd?: string) {
  const proc = Bun.spawn(argv, {
    cwd,
    env: { ...process.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

async function build(): Promise<boolean> {
  progress("send: building dist/crabtalk (bun run build)");
  const r = await exec([process.execPath, "run", "build"], undefined, REPO);
  if (r.code !== 0) progress(`send: build failed (${r.code}):\n${(r.stdout + r.stderr).slice(-4000)}`);
  return r.code === 0;
}

async function hasSend(bin: string): Promise<boolean> {
  return (await exec([bin, "send", "--help"])).code === 0;
}

/** The compiled binary with a working `send`, building (once more) as needed; undefined when not available. */
async function sendBinary(): Promise<string | undefined> {
  let bin = compiledBinary();
  if (!bin) {
    if (!(await build())) return undefined;
    bin = compiledBinary();
    if (!bin) return undefined;
  }
  if (await hasSend(bin)) return bin;
  // Only dist/crabtalk is ours to rebuild; a CRABTALK_BENCH_BINARY is taken as given.
  if (process.env.CRABTALK_BENCH_BINARY) return undefined;
  if (!(await build())) return undefined;
  return (await hasSend(bin)) ? bin : undefined;
}

/** SIGTERM, up to 6 s grace, then SIGKILL. */
async function stopTestDaemon(d: TestDaemon): Promise<void> {
  if (d.proc.exitCode !== null || d.proc.signalCode !== null) return;
  d.proc.kill("SIGTERM");
  if ((await withTimeout(d.proc.exited, 6000)) === TIMEOUT) {
    d.proc.kill("SIGKILL");
    await withTimeout(d.proc.exited, 2000);
  }
}

async function oneShot(bin: string, home: string, options: SendOptions) {
  const env = { CRABTALK_HOME: home };
  // Process start floor of the same binary, for scale: no daemon contact.
  const floor: number[] = [];
  for (let i = 0; i < options.warmupSends + options.sends; i++) {
    const t0 = performance.now();
    const r = await exec([bin, "--version"], env);
    if (r.code !== 0) throw new Error(`crabtalk --version exited ${r.code}: ${r.stderr}`);
    if (i >= options.warmupSends) floor.push(performance.now() - t0);
  }
  const times: number[] = [];
  for (let i = 0; i < options.warmupSends + options.sends; i++) {
    const t0 = performance.now();
    const r = await exec([bin, "send", "hello"], env);
    const ms = performance.now() - t0;
    if (r.code !== 0 || r.stdout.trim() !== "ok") {
      const stderr = r.stderr.slice(-2000);
      throw new Error(`crabtalk send hello: exit ${r.code}, stdout ${JSON.stringify(r.stdout)}, stderr ${stderr}`);
    }
    if (i >= options.warmupSends) times.push(ms);
  }
  const s = sorted(times);
  progress(`send one-shot: median ${median(s).toFixed(1)} ms (process floor ${median(floor).toFixed(1)} ms)`);
  return {
    command: `${bin.replace(REPO + "/", "")} send hello`,
    median_ms: round(percentile(s, 50, true), 1),
    p90_ms: round(percentile(s, 90, true), 1),
    min_ms: round(min(s), 1),
    max_ms: round(max(s), 1),
    runs: s.length,
    samples_ms: times.map((t) => round(t, 1)),
    binary_version_floor_median_ms: round(median(floor), 1),
  };
}

/**
 * One round: every client streams one turn at once. Returns (received − sent)
 * in µs per stream, pairing the sorted client first-chunk times with the
 * sorted fake first-chunk send times of the round.
 */
export async function streamRound(
  clients: Client[],
  fake: FakeLLM,
  label: string,
  /** Given: each client's wait from its request to its first chunk (ms) is added to it. */
  waits?: number[],
): Promise<number[]> {
  const startIdx = fake.firstChunkSentAt.length;
  const start = now();
  const received = await Promise.all(
    clients.map(async (client, i) => {
      let first: number | undefined;
      let text = "";
      for await (const e of client.stream({ agent: "crab", content: "hi", sender: `bench-${label}-${i}` })) {
        if (e.event.case === "chunk") {
          first ??= now();
          text += e.event.value.content;
        } else if (e.event.case === "end" && e.event.value.error !== "") {
          throw new Error(`stream ${label}-${i} ended with error: ${e.event.value.error}`);
        }
      }
      if (first === undefined || text !== "ok") throw new Error(`stream ${label}-${i}: answer ${JSON.stringify(text)}`);
      waits?.push(first - start);
      return first;
    }),
  );
  return pairDeltas(received, fake, startIdx, label);
}

/** Pairs a round's client first-chunk times with the fake's send times (sorted order); µs each. */
export function pairDeltas(received: number[], fake: FakeLLM, startIdx: number, label: string): number[] {
  const sent = fake.firstChunkSentAt.slice(startIdx);
  if (sent.length !== received.length) {
    throw new Error(`round ${label}: ${sent.length} first chunks sent for ${received.length} streams`);
  }
  const r = sorted(received);
  const s = sorted(sent);
  return Array.from(r, (t, i) => (t - s[i]) * 1000);
}

/** One round of `k` concurrent requests made in the bench process itself; each resolves to its first-chunk time. */
export async function floorRound(fake: FakeLLM, k: number, firstChunkAt: () => Promise<number>, label: string): Promise<number[]> {
  const startIdx = fake.firstChunkSentAt.length;
  const received = await Promise.all(Array.from({ length: k }, firstChunkAt));
  return pairDeltas(received, fake, startIdx, label);
}

/** Direct fetch of the fake's SSE: first time the body holds the "ok" content chunk. */
export async function fetchFirstChunk(fake: FakeLLM): Promise<number> {
  const body = JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: "hi" }] });
  const res = await fetch(`${fake.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  if (!res.ok || !res.body) throw new Error(`direct fetch of the fake: HTTP ${res.status}`);
  const decoder = new TextDecoder();
  let seen = "";
  let first: number | undefined;
  for await (const chunk of res.body) {
    if (first !== undefined) continue;
    seen += decoder.decode(chunk, { stream: true });
    if (seen.includes('"content":"ok"')) first = now();
  }
  if (first === undefined) throw new Error("direct fetch of the fake: no content chunk");
  return first;
}

/** The daemon's own OpenAI adapter (SDK), in the bench process: first text chunk it yields. */
async function adapterFirstChunk(model: Model): Promise<number> {
  let first: number | undefined;
  for await (const chunk of model.stream({ model: "fake-model", messages: [{ role: "user", content: "hi" }] })) {
    if (chunk.type === "text" && first === undefined) first = now();
  }
  if (first === undefined) throw new Error("adapter stream of the fake: no text chunk");
  return first;
}

export function latencySummary(deltasUs: number[]) {
  const s = sorted(deltasUs);
  return {
    samples: s.length,
    p50_us: round(percentile(s, 50, true), 0),
    p99_us: round(percentile(s, 99, true), 0),
    max_us: round(max(s), 0),
    min_us: round(min(s), 0),
  };
}

async function floor(fake: FakeLLM, k: number, rounds: number, label: string, firstChunkAt: () => Promise<number>) {
  await floorRound(fake, k, firstChunkAt, label);
  const deltas: number[] = [];
  for (let i = 0; i < rounds; i++) deltas.push(...(await floorRound(fake, k, firstChunkAt, label)));
  const summary = latencySummary(deltas);
  progress(`send ${label} floor K=${k} (no daemon): p50 ${summary.p50_us} µs, p99 ${summary.p99_us} µs`);
  return { streams: k, rounds, ...summary };
}

async function firstChunk(daemon: TestDaemon, fake: FakeLLM, k: number, rounds: number) {
  const clients: Client[] = [];
  try {
    for (let i = 0; i < k; i++) clients.push(await daemon.client());
    // Warm-up round: opens each sender's session (and its background title request).
    await streamRound(clients, fake, `k${k}`);
    await Bun.sleep(200);
    const deltas: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) deltas.push(...(await streamRound(clients, fake, `k${k}`)));
    const seconds = (performance.now() - t0) / 1000;
    const summary = latencySummary(deltas);
    progress(`send first chunk K=${k}: p50 ${summary.p50_us} µs, p99 ${summary.p99_us} µs`);
    return { streams: k, rounds, ...summary, turns_per_second: round(deltas.length / seconds, 0) };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

export async function runSend(options: SendOptions) {
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const home = tempHome("crabtalk-bench-send-");
  const releaseHome = trackCleanup(() => rmSync(home, { recursive: true, force: true }));
  let releaseDaemon: (() => Promise<void>) | undefined;
  try {
    const daemon = await startDaemon({ home, config: config(fake.url) });
    releaseDaemon = trackCleanup(() => stopTestDaemon(daemon));
    progress(`send: daemon up (bun src/main.ts, home ${home}), fake OpenAI at ${fake.url}`);

    const bin = await sendBinary();
    let oneShotResult: Awaited<ReturnType<typeof oneShot>> | { skipped: string };
    if (bin) oneShotResult = await oneShot(bin, home, options);
    else {
      oneShotResult = { skipped: "send command not available" };
      progress("send one-shot: skipped, send command not available in the compiled binary");
    }

    const k1 = await firstChunk(daemon, fake, 1, options.roundsK1);
    const k100 = await firstChunk(daemon, fake, 100, options.roundsK100);
    const adapter = createOpenAIAdapter({
      name: "fake",
      kind: "openai",
      apiKey: "bench",
      baseUrl: fake.url,
      models: ["fake-model"],
    });

    return {
      daemon: "bun src/main.ts daemon (source), provider: in-process fake OpenAI (instant 'ok')",
      one_shot: oneShotResult,
      first_chunk_added_latency: {
        k1,
        k100,
        harness_floor: {
          k1: await floor(fake, 1, options.roundsK1, "harness", () => fetchFirstChunk(fake)),
          k100: await floor(fake, 100, options.roundsK100, "harness", () => fetchFirstChunk(fake)),
        },
        adapter_floor: {
          k1: await floor(fake, 1, options.roundsK1, "adapter", () => adapterFirstChunk(adapter)),
          k100: await floor(fake, 100, options.roundsK100, "adapter", () => adapterFirstChunk(adapter)),
        },
        pairing: "sorted order: the i-th earliest fake first-chunk send paired with the i-th earliest client first chunk of the same round",
        notes: [
          "added latency = client first StreamChunk (performance.timeOrigin+now) minus the fake's first content SSE chunk enqueue time, same process and clock",
          "the fake server and the bench clients share the bench process (one event loop); their scheduling is included",
          "harness_floor = same pairing with the bench process fetching the fake's SSE directly (no daemon): the part of k1/k100 that is the harness, not the daemon",
          "adapter_floor = same pairing through the daemon's OpenAI adapter (src/model/openai/adapter.ts, openai SDK) in the bench process (no daemon): the provider client's share",
          "one Client (own Unix socket connection) per stream; stream sender bench-k<K>-<i>, one session each; one warm-up round per K",
        ],
      },
      targets: TARGETS,
      meets_targets: {
        send_median: "skipped" in oneShotResult ? null : oneShotResult.median_ms <= TARGETS.send_median_ms,
        first_chunk_p99_at_100_streams: k100.p99_us <= TARGETS.first_chunk_added_p99_us_at_100_streams,
      },
    };
  } finally {
    await releaseDaemon?.();
    await releaseFake();
    await releaseHome();
  }
}
