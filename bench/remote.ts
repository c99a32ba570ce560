// The remote WebSocket listener (docs/remote.md) against the Unix socket, as a
// client outside the daemon sees them. Two daemons on the same fake provider:
// one with the listener on ws://, one with it on wss:// (tls = "self-signed",
// its certificate pinned by the fingerprint GetRemoteStatus gives). One
// connection each way, an operate token made through the protocol, Bearer on
// the upgrade. Measured, interleaved (batches in turn, the order reversed
// every round, so a load change on the machine hits every way alike):
//   - Ping round trips, µs: Unix socket, ws://, and wss:// with its own
//     daemon's Unix socket next to it;
//   - a streamed answer ("hi" → "ok", one session per way): request → first
//     chunk and request → end, ms.
// Ratios are p50 to p50 and p99 to p99 against the Unix socket of the same
// daemon (wss also against ws://). The bench process's CPU share over each
// loop says whether the harness (clients and fake) could have set the pace.
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { bearer, pinnedCertificate, wsClient } from "../test/support/remote.ts";
import type { Client } from "../src/protocol/client.ts";
import { type BenchDaemon, stopDaemon, trackCleanup } from "./daemon.ts";
import { harnessLoad } from "./harness-load.ts";
import { daemonCommand, remoteAccess, startReachDaemon, unixClient } from "./reach-daemon.ts";
import { progress, round } from "./stats.ts";
import { threadsCpuMs } from "./targets.ts";
import { ratios, spread, timedTurn, type Spread } from "./timed-turn.ts";

export interface RemoteOptions {
  /** Measured Pings per way, taken in batches of `batch`. */
  pings: number;
  batch: number;
  warmupPings: number;
  /** Measured streamed turns per way, one of each way in turn. */
  turns: number;
  warmupTurns: number;
}

/** One way in: "unix" and "ws" reach the ws daemon, "unix (tls daemon)" and "wss" the other. */
interface Way {
  name: string;
  client: Client;
  /** The daemon behind it, whose CPU each batch is charged. */
  pid: number;
}

/** Samples of one way, and the daemon CPU they cost in all (ms). */
interface Taken {
  samples: number[];
  cpuMs: number;
}

function taken(ways: Way[]): Record<string, Taken> {
  return Object.fromEntries(ways.map((w) => [w.name, { samples: [], cpuMs: 0 }]));
}

async function pingRounds(ways: Way[], options: RemoteOptions): Promise<Record<string, Taken>> {
  for (const way of ways) for (let i = 0; i < options.warmupPings; i++) await way.client.ping();
  const out = taken(ways);
  const rounds = Math.ceil(options.pings / options.batch);
  for (let r = 0; r < rounds; r++) {
    for (const way of r % 2 === 0 ? ways : [...ways].reverse()) {
      const { samples } = out[way.name];
      const cpu0 = threadsCpuMs(way.pid);
      for (let i = 0; i < options.batch; i++) {
        const t0 = Bun.nanoseconds();
        await way.client.ping();
        samples.push((Bun.nanoseconds() - t0) / 1e3);
      }
      out[way.name].cpuMs += threadsCpuMs(way.pid) - cpu0;
    }
  }
  return out;
}

async function turnRounds(ways: Way[], options: RemoteOptions): Promise<{ first: Record<string, Taken>; end: Record<string, Taken> }> {
  const turn = (way: Way) => timedTurn(way.client, { agent: "crab", content: "hi", sender: `bench-reach-${way.name}` });
  for (let i = 0; i < options.warmupTurns; i++) for (const way of ways) await turn(way);
  const first = taken(ways);
  const end = taken(ways);
  for (let r = 0; r < options.turns; r++) {
    for (const way of r % 2 === 0 ? ways : [...ways].reverse()) {
      const cpu0 = threadsCpuMs(way.pid);
      const t = await turn(way);
      end[way.name].cpuMs += threadsCpuMs(way.pid) - cpu0;
      first[way.name].samples.push(t.firstMs);
      end[way.name].samples.push(t.endMs);
    }
  }
  return { first, end };
}

/** The ws daemon's two ways, and the wss daemon's two when TLS works (else the reason it does not). */
async function openWays(plain: BenchDaemon, secure: BenchDaemon): Promise<{ ways: Way[]; tlsSkipped?: string }> {
  const ways: Way[] = [];
  const ws = await remoteAccess(plain);
  ways.push({ name: "unix", client: await unixClient(plain), pid: plain.proc.pid });
  ways.push({ name: "ws", client: (await wsClient(ws.url, bearer(ws.token))).client, pid: plain.proc.pid });
  try {
    const wss = await remoteAccess(secure);
    const url = new URL(wss.url);
    const ca = await pinnedCertificate(url.hostname, Number(url.port), wss.fingerprint);
    const client = (await wsClient(wss.url, { ...bearer(wss.token), tls: { ca } })).client;
    ways.push({ name: "unix (tls daemon)", client: await unixClient(secure), pid: secure.proc.pid });
    ways.push({ name: "wss", client, pid: secure.proc.pid });
    return { ways };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    progress(`reach: wss:// skipped: ${why}`);
    return { ways, tlsSkipped: why };
  }
}

interface Figure extends Spread {
  /** The daemon's CPU per sample (µs a Ping, ms a turn); absent where it was not taken apart. */
  daemon_cpu?: number;
}

interface Compared {
  ways: Record<string, Figure>;
  ws_to_unix: { p50: number; p99: number };
  wss_to_unix?: { p50: number; p99: number };
  wss_to_ws?: { p50: number; p99: number };
}

/** Each way's p50/p99 (and its daemon's CPU per sample, times `cpuUnit`: 1000 for µs), with the ratios to the floors. */
function compared(taken: Record<string, Taken>, digits: number, cpuUnit: number): Compared {
  const ways: Record<string, Figure> = {};
  for (const [name, t] of Object.entries(taken)) {
    ways[name] = spread(t.samples, digits);
    if (t.cpuMs > 0) ways[name].daemon_cpu = round((t.cpuMs * cpuUnit) / t.samples.length, digits);
  }
  const out: Compared = { ways, ws_to_unix: ratios(ways.ws, ways.unix) };
  if (ways.wss) {
    out.wss_to_unix = ratios(ways.wss, ways["unix (tls daemon)"]);
    out.wss_to_ws = ratios(ways.wss, ways.ws);
  }
  return out;
}

export async function runRemote(options: RemoteOptions) {
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const daemons: BenchDaemon[] = [];
  let ways: Way[] = [];
  try {
    daemons.push(await startReachDaemon(fake, "ws"), await startReachDaemon(fake, "wss"));
    const opened = await openWays(daemons[0], daemons[1]);
    ways = opened.ways;
    progress(`reach: ${ways.map((w) => w.name).join(", ")}; daemon ${daemonCommand().label}`);

    const pingLoad = harnessLoad();
    const pingUs = await pingRounds(ways, options);
    const pingHarness = pingLoad();
    const ping = compared(pingUs, 1, 1000);
    for (const w of ways) {
      const s = ping.ways[w.name];
      progress(`reach ping ${w.name}: p50 ${s.p50} µs, p99 ${s.p99} µs; daemon CPU ${s.daemon_cpu} µs a Ping`);
    }

    const turnLoad = harnessLoad();
    const turns = await turnRounds(ways, options);
    const turnHarness = turnLoad();
    const first = compared(turns.first, 2, 1);
    const end = compared(turns.end, 2, 1);
    for (const w of ways) {
      const f = first.ways[w.name];
      const e = end.ways[w.name];
      progress(
        `reach turn ${w.name}: first chunk p50 ${f.p50} ms, p99 ${f.p99} ms; end p50 ${e.p50} ms, p99 ${e.p99} ms; daemon CPU ${e.daemon_cpu} ms a turn`,
      );
    }
    progress(`reach: bench process CPU share: pings ${pingHarness.cpu_share}, turns ${turnHarness.cpu_share}`);
    for (const d of daemons) if (d.proc.exitCode !== null) throw new Error(`a daemon died during the reach bench:\n${d.stderrTail()}`);
    return {
      daemon: daemonCommand().label,
      tls: opened.tlsSkipped ? { skipped: opened.tlsSkipped } : { pinned: "self-signed certificate, by its SHA-256 fingerprint" },
      ping_us: { per_way: options.pings, batch: options.batch, ...ping },
      turn_first_chunk_ms: { per_way: options.turns, ...first },
      turn_end_ms: { per_way: options.turns, ...end },
      harness: { pings: pingHarness, turns: turnHarness },
    };
  } finally {
    await Promise.allSettled(ways.map((w) => w.client.close()));
    for (const d of daemons) await stopDaemon(d);
    await releaseFake();
  }
}
