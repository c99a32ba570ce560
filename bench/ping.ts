// Ping round trips against a real daemon over UDS and TCP: N connections,
// each doing sequential pings for a fixed duration.
import { Client } from "../src/protocol/client.ts";
import { connect, type Endpoint } from "../src/transport/connect.ts";
import { SOURCE_COMMAND, readPort, spawnDaemon, stopDaemon, waitForFirstPong } from "./daemon.ts";
import { percentile, progress, round, sorted } from "./stats.ts";

export interface PingResult {
  rps: number;
  p50_us: number;
  p99_us: number;
  completed: number;
  seconds: number;
}

export interface PingOptions {
  /** Measured duration of each (transport, connections) case, in ms. */
  durationMs: number;
  /** Warm-up pings per connection before the clock starts. */
  warmupPings: number;
}

const CONNECTIONS = [1, 50];
/** Hard cap on pings per connection per case, whatever the clock says. */
const MAX_PINGS_PER_CONN = 2_000_000;

async function runCase(endpoint: Endpoint, conns: number, options: PingOptions): Promise<PingResult> {
  const clients: Client[] = [];
  try {
    for (let i = 0; i < conns; i++) clients.push(new Client(await connect(endpoint)));
    await Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < options.warmupPings; i++) await c.ping();
      }),
    );

    const perConn: number[][] = clients.map(() => []);
    const start = Bun.nanoseconds();
    const deadline = start + options.durationMs * 1e6;
    await Promise.all(
      clients.map(async (c, idx) => {
        const lat = perConn[idx];
        for (let n = 0; n < MAX_PINGS_PER_CONN; n++) {
          const t0 = Bun.nanoseconds();
          if (t0 >= deadline) break;
          await c.ping();
          lat.push((Bun.nanoseconds() - t0) / 1e3);
        }
      }),
    );
    const seconds = (Bun.nanoseconds() - start) / 1e9;

    const all = sorted(perConn.flat());
    return {
      rps: round(all.length / seconds, 0),
      p50_us: round(percentile(all, 50, true), 1),
      p99_us: round(percentile(all, 99, true), 1),
      completed: all.length,
      seconds: round(seconds, 3),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  }
}

export async function runPing(options: PingOptions): Promise<Record<string, Record<string, PingResult>>> {
  const daemon = spawnDaemon(SOURCE_COMMAND);
  try {
    await waitForFirstPong(daemon);
    const port = await readPort(daemon);
    const transports: Array<[string, Endpoint]> = [
      ["uds", { unix: daemon.socket }],
      ["tcp", { hostname: "127.0.0.1", port }],
    ];
    const out: Record<string, Record<string, PingResult>> = {};
    for (const [name, endpoint] of transports) {
      out[name] = {};
      for (const conns of CONNECTIONS) {
        Bun.gc(true);
        const r = await runCase(endpoint, conns, options);
        out[name][`${conns}_conn`] = r;
        progress(`ping ${name} ${conns} conn: ${r.rps} rps, p50 ${r.p50_us} µs, p99 ${r.p99_us} µs (${r.completed} pings)`);
      }
    }
    if (daemon.proc.exitCode !== null) throw new Error(`daemon died during the ping bench:\n${daemon.stderrTail()}`);
    return out;
  } finally {
    await stopDaemon(daemon);
  }
}
