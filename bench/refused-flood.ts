// Another local user floods the daemon's TCP port with connects, all refused
// (part of `bun run bench memory`; alone: `bun bench/refused-flood.ts [--quick]`).
// The flooder is test/support/tcp-flood.ts run as `nobody` through setpriv (so this
// needs root, as the tests that create a second user do), loopback only, with
// a bounded count and time. Meanwhile the owner Pings over an open TCP
// connection and over fresh ones (which wait for their own admission).
// Rounds alternate a window without the flood (the floor) and one with it;
// each figure is the median over rounds, ratios to the floor of the same run.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { readableByAnyone } from "../test/support/other-user.ts";
import { compiledBinary, readPort, rssMb, SOURCE_COMMAND, spawnDaemon, stopDaemon, TIMEOUT, trackCleanup, waitForFirstPong, withTimeout } from "./daemon.ts";
import { median, p99, progress, round } from "./stats.ts";

const SUPPORT = join(import.meta.dir, "../test/support");
/** Connects the flooder keeps open at once. */
const CONCURRENCY = Number(process.env.FLOOD_CONCURRENCY ?? 64);

interface Window {
  ping_p50_ms: number;
  ping_p99_ms: number;
  fresh_p50_ms: number;
  fresh_p99_ms: number;
}

/** Owner's Pings for `ms`: on the open connection back to back, and every 10th also on a fresh one. */
async function ownerPings(open: Client, port: number, ms: number): Promise<Window> {
  const onOpen: number[] = [];
  const fresh: number[] = [];
  const end = performance.now() + ms;
  for (let n = 1; performance.now() < end; n++) {
    const t0 = performance.now();
    await bounded(open.ping(), "a Ping on the owner's open TCP connection");
    onOpen.push(performance.now() - t0);
    if (n % 10 === 0) {
      const t1 = performance.now();
      const c = await bounded(
        connect({ hostname: "127.0.0.1", port }).then((conn) => new Client(conn)),
        "the owner's fresh TCP connection",
      );
      await bounded(c.ping(), "a Ping on the owner's fresh TCP connection");
      fresh.push(performance.now() - t1);
      void c.close().catch(() => {});
    }
    await Bun.sleep(2);
  }
  return { ping_p50_ms: median(onOpen), ping_p99_ms: p99(onOpen), fresh_p50_ms: median(fresh), fresh_p99_ms: p99(fresh) };
}

/** A step of the owner's that takes over 10 s means the daemon stopped serving it: the case fails. */
async function bounded<T>(step: Promise<T>, what: string): Promise<T> {
  const result = await withTimeout(step, 10_000);
  if (result === TIMEOUT) throw new Error(`${what} got no answer within 10 s during the flood`);
  return result;
}

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function nobody(): { uid: number; gid: number } {
  const id = (flag: string) => Number(new TextDecoder().decode(Bun.spawnSync(["id", flag, "nobody"]).stdout).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export interface FloodOptions {
  rounds: number;
  windowMs: number;
  maxConnects: number;
}

export async function refusedFlood(options: FloodOptions) {
  if (process.getuid?.() !== 0) throw new Error("the refused-connection flood runs a second OS user through setpriv: run the bench as root");
  const command = compiledBinary() ? [compiledBinary()!] : SOURCE_COMMAND;
  const shared = readableByAnyone([join(SUPPORT, "tcp-flood.ts"), join(SUPPORT, "raw-proto.ts")]);
  const removeShared = trackCleanup(() => rmSync(shared, { recursive: true, force: true }));
  const user = nobody();
  const d = spawnDaemon(command, { config: "" });
  try {
    await waitForFirstPong(d);
    const port = await readPort(d);
    const owner = new Client(await connect({ hostname: "127.0.0.1", port }));
    for (let i = 0; i < 200; i++) await owner.ping();
    const rssBefore = rssMb(d.proc.pid)!;
    const floors: Window[] = [];
    const floods: Array<Window & { refused: number; per_refusal_cpu_us: number; connects_per_s: number; peak_rss_mib: number }> = [];
    for (let r = 0; r < options.rounds; r++) {
      floors.push(await ownerPings(owner, port, options.windowMs));
      const cpu0 = cpuMs(d.proc.pid);
      const t0 = performance.now();
      const flooder = Bun.spawn(
        [
          "setpriv",
          `--reuid=${user.uid}`,
          `--regid=${user.gid}`,
          "--clear-groups",
          process.execPath,
          join(shared, "tcp-flood.ts"),
          String(port),
          String(options.windowMs / 1000),
          String(options.maxConnects),
          String(CONCURRENCY),
        ],
        { cwd: shared, env: { PATH: process.env.PATH, HOME: "/tmp", BUN_INSTALL_CACHE_DIR: "/tmp/.bun-other-cache" }, stdout: "pipe", stderr: "pipe" },
      );
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(d.proc.pid) ?? 0)), 50);
      const [window, out] = await Promise.all([ownerPings(owner, port, options.windowMs), new Response(flooder.stdout).text()]);
      clearInterval(sampler);
      const seconds = (performance.now() - t0) / 1000;
      const counts = JSON.parse(out.trim() || "{}") as { refused?: number; answered?: number };
      if (counts.answered) throw new Error(`the daemon answered ${counts.answered} connections of another user`);
      if (!counts.refused) throw new Error(`the flooder reported nothing: ${await new Response(flooder.stderr).text()}`);
      floods.push({
        ...window,
        refused: counts.refused,
        connects_per_s: round(counts.refused / seconds, 0),
        per_refusal_cpu_us: round(((cpuMs(d.proc.pid) - cpu0) * 1000) / counts.refused, 1),
        peak_rss_mib: round(Math.max(peak, rssMb(d.proc.pid) ?? 0), 1),
      });
      const last = floods.at(-1)!;
      progress(
        `memory: flood round ${r + 1}/${options.rounds}: ${last.refused} refused, ${last.per_refusal_cpu_us} µs each, owner's Ping p50 ${round(last.ping_p50_ms, 3)} ms`,
      );
    }
    // Settled: the lowest of a few reads once the last flood ended.
    let rssAfter = Infinity;
    for (let i = 0; i < 10; i++) {
      await Bun.sleep(200);
      rssAfter = Math.min(rssAfter, rssMb(d.proc.pid)!);
    }
    await owner.close();
    const med = (pick: (w: Window) => number, of: Window[]) => median(of.map(pick));
    const ratio = (pick: (w: Window) => number) => round(med(pick, floods) / med(pick, floors), 2);
    return {
      rounds: options.rounds,
      window_s: options.windowMs / 1000,
      refused_per_round: median(floods.map((f) => f.refused)),
      refused_per_s: median(floods.map((f) => f.connects_per_s)),
      daemon_cpu_per_refusal_us: median(floods.map((f) => f.per_refusal_cpu_us)),
      rss_before_mib: round(rssBefore, 1),
      rss_peak_mib: median(floods.map((f) => f.peak_rss_mib)),
      rss_after_mib: round(rssAfter, 1),
      ping_floor_p50_ms: round(
        med((w) => w.ping_p50_ms, floors),
        3,
      ),
      ping_floor_p99_ms: round(
        med((w) => w.ping_p99_ms, floors),
        3,
      ),
      ping_flood_p50_ms: round(
        med((w) => w.ping_p50_ms, floods),
        3,
      ),
      ping_flood_p99_ms: round(
        med((w) => w.ping_p99_ms, floods),
        3,
      ),
      ping_p50_ratio: ratio((w) => w.ping_p50_ms),
      ping_p99_ratio: ratio((w) => w.ping_p99_ms),
      fresh_floor_p50_ms: round(
        med((w) => w.fresh_p50_ms, floors),
        3,
      ),
      fresh_flood_p50_ms: round(
        med((w) => w.fresh_p50_ms, floods),
        3,
      ),
      fresh_p50_ratio: ratio((w) => w.fresh_p50_ms),
      fresh_p99_ratio: ratio((w) => w.fresh_p99_ms),
    };
  } finally {
    await stopDaemon(d);
    await removeShared();
  }
}

export function floodOptions(quick: boolean): FloodOptions {
  return quick ? { rounds: 3, windowMs: 2000, maxConnects: 100_000 } : { rounds: 5, windowMs: 4000, maxConnects: 400_000 };
}

if (import.meta.main) {
  const result = await refusedFlood(floodOptions(process.argv.includes("--quick")));
  console.log(JSON.stringify(result, null, 2));
}
