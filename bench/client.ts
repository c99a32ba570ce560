// Client start-up against its floor (issue 11): a compiled Bun hello world,
// built in the same run, against the compiled crabtalk's hot commands on a
// warm daemon whose only provider is an instant fake OpenAI server. Runs are
// interleaved (one of each command per round) so a noisy machine slows all
// alike; figures are medians and ratios to hello. Peak RSS comes from
// /usr/bin/time -f %M (GNU time) in separate runs, so wall time is not skewed.
// CRABTALK_BENCH_BINARY overrides dist/crabtalk; CRABTALK_BENCH_BASELINE names
// a second binary (say, a build from before a change) measured alongside.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon, tempHome, type TestDaemon } from "../test/support/daemon.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { FastClient } from "../src/cli/fast/client.ts";
import { REPO, TIMEOUT, compiledBinary, trackCleanup, withTimeout } from "./daemon.ts";
import { median, progress, round } from "./stats.ts";

export interface ClientOptions {
  /** Measured rounds (after `warmup` unmeasured ones); each round runs every command once. */
  rounds: number;
  warmup: number;
  /** Runs per command under /usr/bin/time for peak RSS. */
  rssRuns: number;
  /** Batches of `concurrency` simultaneous sends. */
  batches: number;
  concurrency: number;
}

export const TARGETS = { send_ratio: 2, send_rss_mib: 36, command_ratio: 2.5, concurrent_batch_ms: 150, executable_mib: 110 };

const COMMANDS: Record<string, string[]> = {
  "send hi": ["send", "hi"],
  "send --json hi": ["send", "--json", "hi"],
  "send --new hi": ["send", "--new", "hi"],
  ping: ["ping"],
  "--version": ["--version"],
  "--help": ["--help"],
  stats: ["stats"],
  sessions: ["sessions"],
};

const TIME = "/usr/bin/time";

function config(fakeUrl: string): string {
  return `[provider.fake]
api_key = "bench"
base_url = "${fakeUrl}"
models = ["fake-model"]

[system.crab]
model = "fake-model"
`;
}

async function run(argv: string[], env: Record<string, string>): Promise<{ ms: number; cpuMs: number; code: number; stdout: string; stderr: string }> {
  const t0 = performance.now();
  const proc = Bun.spawn(argv, { env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  // User + system CPU of the child (wait4's rusage): a figure the other benchmarks on a shared machine barely move.
  const cpuMs = Number(proc.resourceUsage()?.cpuTime.total ?? 0) / 1000;
  return { ms: performance.now() - t0, cpuMs, code, stdout, stderr };
}

/** A process's CPU time so far (utime + stime, all threads), in ms. */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

async function compile(entry: string, outfile: string): Promise<void> {
  const flags = ["--compile", "--minify", "--bytecode", "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"];
  const r = await run([process.execPath, "build", ...flags, entry, "--outfile", outfile], {});
  if (r.code !== 0) throw new Error(`compiling ${entry} failed: ${r.stderr.slice(-2000)}`);
}

async function binary(): Promise<string> {
  const given = compiledBinary();
  if (process.env.CRABTALK_BENCH_BINARY) {
    if (!given) throw new Error(`CRABTALK_BENCH_BINARY ${process.env.CRABTALK_BENCH_BINARY} does not exist`);
    return given;
  }
  progress("client: building dist/crabtalk (bun run build)");
  const r = await run([process.execPath, "run", "build"], {});
  if (r.code !== 0) throw new Error(`bun run build failed: ${(r.stdout + r.stderr).slice(-2000)}`);
  return join(REPO, "dist/crabtalk");
}

async function peakRssMiB(argv: string[], env: Record<string, string>, dir: string): Promise<number> {
  const out = join(dir, "rss");
  const r = await run([TIME, "-f", "%M", "-o", out, ...argv], env);
  if (r.code !== 0) throw new Error(`${argv.join(" ")} under time exited ${r.code}: ${r.stderr.slice(-500)}`);
  return Number.parseInt(readFileSync(out, "utf8").trim().split("\n").pop() ?? "", 10) / 1024;
}

export async function runClient(options: ClientOptions) {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-bench-client-"));
  const releaseDir = trackCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const home = tempHome("crabtalk-bench-client-home-");
  const releaseHome = trackCleanup(() => rmSync(home, { recursive: true, force: true }));
  let daemon: TestDaemon | undefined;
  const releaseDaemon = trackCleanup(async () => {
    if (!daemon || daemon.proc.exitCode !== null) return;
    daemon.proc.kill("SIGTERM");
    if ((await withTimeout(daemon.proc.exited, 6000)) === TIMEOUT) daemon.proc.kill("SIGKILL");
  });
  try {
    const bin = await binary();
    writeFileSync(join(dir, "hello.ts"), `console.log("hello world");\n`);
    const hello = join(dir, "hello");
    await compile(join(dir, "hello.ts"), hello);
    daemon = await startDaemon({ home, config: config(fake.url) });
    progress(`client: daemon up, fake OpenAI at ${fake.url}, binary ${bin}`);
    const env = { CRABTALK_HOME: home };

    const subjects: Record<string, string[]> = { hello: [hello] };
    const binaries: Record<string, string> = { "": bin };
    const baseline = process.env.CRABTALK_BENCH_BASELINE;
    if (baseline) {
      if (!existsSync(baseline)) throw new Error(`CRABTALK_BENCH_BASELINE ${baseline} does not exist`);
      binaries["baseline "] = baseline;
    }
    for (const [prefix, b] of Object.entries(binaries)) {
      for (const [name, args] of Object.entries(COMMANDS)) subjects[prefix + name] = [b, ...args];
    }

    // Every command must work before it is timed: a failing one would look fast.
    for (const [name, argv] of Object.entries(subjects)) {
      const r = await run(argv, env);
      if (r.code !== 0) throw new Error(`${name}: exit ${r.code}: ${r.stderr.slice(-1000)}`);
      if (name.endsWith("send hi") && r.stdout.trim() !== "ok") throw new Error(`${name}: stdout ${JSON.stringify(r.stdout)}`);
    }

    const times: Record<string, number[]> = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
    const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
    for (let round = 0; round < options.warmup + options.rounds; round++) {
      for (const [name, argv] of Object.entries(subjects)) {
        const r = await run(argv, env);
        if (r.code !== 0) throw new Error(`${name}: exit ${r.code}: ${r.stderr.slice(-1000)}`);
        if (round >= options.warmup) times[name].push(r.ms), cpu[name].push(r.cpuMs);
      }
    }

    const rss: Record<string, number[]> = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
    const haveTime = existsSync(TIME);
    if (haveTime) {
      for (let i = 0; i < options.rssRuns; i++) {
        for (const [name, argv] of Object.entries(subjects)) rss[name].push(await peakRssMiB(argv, env, dir));
      }
    } else progress(`client: no ${TIME} (apt-get install time): peak RSS not measured`);

    const floor = median(times.hello);
    const commands: Record<string, unknown> = {};
    for (const name of Object.keys(subjects)) {
      const ms = median(times[name]);
      commands[name] = {
        median_ms: round(ms, 1),
        ratio_to_hello: round(ms / floor, 2),
        cpu_median_ms: round(median(cpu[name]), 2),
        peak_rss_mib: haveTime ? round(median(rss[name]), 1) : null,
      };
      progress(
        `client: ${name.padEnd(24)} ${ms.toFixed(1).padStart(6)} ms  ×${(ms / floor).toFixed(2)}  cpu ${median(cpu[name]).toFixed(1)} ms` +
          (haveTime ? `  ${median(rss[name]).toFixed(1)} MiB` : ""),
      );
    }

    // The daemon's share of a send: one turn and the agent lookup on a warm connection, no process start.
    const turns: number[] = [];
    const sendTurns: number[] = [];
    const savedHome = process.env.CRABTALK_HOME;
    process.env.CRABTALK_HOME = home;
    const client = await FastClient.open({}, () => {});
    try {
      for (let i = 0; i < options.rounds; i++) {
        const t0 = performance.now();
        for await (const event of client.stream({ agent: "crab", content: "hi", newChat: true, cwd: dir })) void event;
        await client.getAgent("crab");
        turns.push(performance.now() - t0);
        // What `send hi` asks of the daemon: its agent, the busy sessions, a turn in its existing session.
        const t1 = performance.now();
        await client.getAgent("crab");
        await client.activeSessions();
        for await (const event of client.stream({ agent: "crab", content: "hi", cwd: dir })) void event;
        sendTurns.push(performance.now() - t1);
      }
    } finally {
      await client.close();
      if (savedHome === undefined) delete process.env.CRABTALK_HOME;
      else process.env.CRABTALK_HOME = savedHome;
    }
    const daemonTurn = median(turns);
    const daemonSendTurn = median(sendTurns);
    progress(`client: daemon turn (new chat) + agent lookup, warm connection: ${daemonTurn.toFixed(1)} ms`);
    progress(`client: what send hi asks of the daemon (agent, busy sessions, turn in its session), warm connection: ${daemonSendTurn.toFixed(1)} ms`);

    // One `send hi` split by CPU: the client process (its rusage) against the daemon's
    // part (its /proc CPU over the same sends, all threads, so JIT and GC included).
    const sendCpu: number[] = [];
    const daemonBefore = processCpuMs(daemon.proc.pid);
    for (let i = 0; i < options.rounds; i++) sendCpu.push((await run([bin, "send", "hi"], env)).cpuMs);
    const split = {
      sends: options.rounds,
      client_cpu_median_ms: round(median(sendCpu), 2),
      hello_cpu_median_ms: round(median(cpu.hello), 2),
      daemon_cpu_per_send_ms: round((processCpuMs(daemon.proc.pid) - daemonBefore) / options.rounds, 2),
    };
    progress(
      `client: one send's CPU: client ${split.client_cpu_median_ms} ms (hello ${split.hello_cpu_median_ms} ms), daemon ${split.daemon_cpu_per_send_ms} ms`,
    );

    // Concurrent sends, against as many concurrent hellos.
    // What a batch costs: the clients' CPU together and the daemon's, against the 2 cores' wall time.
    const batch = async (argv: (i: number) => string[]) => {
      const daemonBefore = processCpuMs(daemon!.proc.pid);
      const t0 = performance.now();
      const results = await Promise.all(Array.from({ length: options.concurrency }, (_, i) => run(argv(i), env)));
      const ms = performance.now() - t0;
      const bad = results.find((r) => r.code !== 0);
      if (bad) throw new Error(`concurrent run failed: ${bad.stderr.slice(-1000)}`);
      return { ms, clientCpu: results.reduce((sum, r) => sum + r.cpuMs, 0), daemonCpu: processCpuMs(daemon!.proc.pid) - daemonBefore };
    };
    const sendBatches: number[] = [];
    const helloBatches: number[] = [];
    const clientCpu: number[] = [];
    const daemonCpu: number[] = [];
    for (let i = 0; i < options.batches + 1; i++) {
      const s = await batch((k) => [bin, "send", "--sender", `bench-${k}`, "hi"]);
      const h = await batch(() => [hello]);
      if (i > 0) sendBatches.push(s.ms), helloBatches.push(h.ms), clientCpu.push(s.clientCpu), daemonCpu.push(s.daemonCpu);
    }
    const concurrent = {
      sends: options.concurrency,
      batch_median_ms: round(median(sendBatches), 1),
      hello_batch_median_ms: round(median(helloBatches), 1),
      ratio_to_hello_batch: round(median(sendBatches) / median(helloBatches), 2),
      clients_cpu_median_ms: round(median(clientCpu), 1),
      daemon_cpu_median_ms: round(median(daemonCpu), 1),
      batches: sendBatches.length,
    };
    progress(
      `client: ${options.concurrency} concurrent sends ${concurrent.batch_median_ms} ms (as many hellos ${concurrent.hello_batch_median_ms} ms); ` +
        `CPU: clients ${concurrent.clients_cpu_median_ms} ms, daemon ${concurrent.daemon_cpu_median_ms} ms`,
    );

    const send = commands["send hi"] as { ratio_to_hello: number; peak_rss_mib: number | null };
    // The executable's size, next to the hello world's: what Bun itself weighs.
    const mib = (file: string) => round(statSync(file).size / 1024 / 1024, 1);
    const executable = { mib: mib(bin), hello_mib: mib(hello) };
    progress(`client: executable ${executable.mib} MiB (hello world ${executable.hello_mib} MiB)`);
    const worst = Math.max(...Object.keys(COMMANDS).map((n) => (commands[n] as { ratio_to_hello: number }).ratio_to_hello));
    return {
      binary: bin.replace(REPO + "/", ""),
      baseline: baseline ?? null,
      rounds: options.rounds,
      hello_median_ms: round(floor, 1),
      daemon_turn_warm_connection_ms: round(daemonTurn, 1),
      daemon_send_requests_warm_connection_ms: round(daemonSendTurn, 1),
      send_cpu_split: split,
      commands,
      concurrent,
      executable,
      targets: TARGETS,
      met: {
        send_ratio: send.ratio_to_hello <= TARGETS.send_ratio,
        send_rss: send.peak_rss_mib === null ? null : send.peak_rss_mib <= TARGETS.send_rss_mib,
        every_command_ratio: worst <= TARGETS.command_ratio,
        concurrent_batch: concurrent.batch_median_ms <= TARGETS.concurrent_batch_ms,
      },
    };
  } finally {
    await releaseDaemon();
    await releaseHome();
    await releaseFake();
    await releaseDir();
  }
}

/** The client targets as rows of the one targets table (`bun run bench` prints them with the daemon's). */
export function clientTargets(c: Awaited<ReturnType<typeof runClient>>) {
  const cmd = c.commands as Record<string, { median_ms: number; ratio_to_hello: number; cpu_median_ms: number; peak_rss_mib: number | null }>;
  const send = cmd["send hi"];
  const hello = `hello world ${c.hello_median_ms} ms, CPU ${cmd.hello.cpu_median_ms} ms`;
  const others = ["ping", "stats", "sessions", "--version", "--help"];
  const worst = Math.max(...others.map((n) => cmd[n].ratio_to_hello));
  return [
    {
      target: "`send hi`, warm daemon, instant fake",
      figure: `${send.median_ms} ms (CPU ${send.cpu_median_ms} ms)`,
      floor: `${hello} (×${send.ratio_to_hello})`,
      goal: `≤ ${TARGETS.send_ratio}× floor`,
      met: send.ratio_to_hello <= TARGETS.send_ratio,
    },
    {
      target: "`send hi` peak RSS",
      figure: send.peak_rss_mib === null ? "not measured (no /usr/bin/time)" : `${send.peak_rss_mib} MiB`,
      goal: `≤ ${TARGETS.send_rss_mib} MiB`,
      met: send.peak_rss_mib !== null && send.peak_rss_mib <= TARGETS.send_rss_mib,
    },
    {
      target: "ping / stats / sessions / --version / --help",
      figure: others.map((n) => `×${cmd[n].ratio_to_hello}`).join(" / "),
      floor: hello,
      goal: `each ≤ ${TARGETS.command_ratio}× floor`,
      met: worst <= TARGETS.command_ratio,
    },
    {
      target: `${c.concurrent.sends} concurrent sends, batch wall`,
      figure: `${c.concurrent.batch_median_ms} ms`,
      floor: `${c.concurrent.sends} concurrent hello worlds ${c.concurrent.hello_batch_median_ms} ms (×${c.concurrent.ratio_to_hello_batch})`,
      goal: `≤ ${TARGETS.concurrent_batch_ms} ms`,
      met: c.concurrent.batch_median_ms <= TARGETS.concurrent_batch_ms,
    },
    {
      target: "executable size",
      figure: `${c.executable.mib} MiB`,
      floor: `compiled hello world ${c.executable.hello_mib} MiB (+${round(c.executable.mib - c.executable.hello_mib, 1)})`,
      goal: `≤ ${TARGETS.executable_mib} MiB`,
      met: c.executable.mib <= TARGETS.executable_mib,
    },
  ];
}
