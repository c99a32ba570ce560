// Benchmark entry (`bun run bench`). Usage:
//   bun bench/run.ts [codec] [client] [ping] [startup] [agent] [send] [session] [search] [daemon] [soak] [conversation] [memory] [reach] [--quick] [--sequential-stops]
// Runs the named groups (default: all), prints one JSON object to stdout and
// writes it to bench/results/latest.json. Progress goes to stderr.
// --quick shortens every duration (smoke run). --sequential-stops makes each
// cold start wait for the previous daemon to exit instead of overlapping its
// shutdown with the next start.
import { mkdirSync, writeFileSync } from "node:fs";
import { arch, cpus, platform, totalmem } from "node:os";
import { join } from "node:path";
import { runAgentBench } from "./agent.ts";
import { clientTargets, runClient } from "./client.ts";
import { runCodec } from "./codec.ts";
import { conversationTarget, runConversation } from "./conversation.ts";
import { stopAll } from "./daemon.ts";
import { runMemory } from "./memory.ts";
import { memoryTargets } from "./memory-targets.ts";
import { runPing } from "./ping.ts";
import { reachRows, runReach } from "./reach.ts";
import { runSend } from "./send.ts";
import { runSearchBench } from "./search.ts";
import { runSession } from "./session.ts";
import { runSoak } from "./soak.ts";
import { runStartup } from "./startup.ts";
import { runDaemonBench, targetTable } from "./targets.ts";
import { progress, round } from "./stats.ts";

const GROUPS = ["codec", "client", "ping", "startup", "agent", "send", "session", "search", "daemon", "soak", "conversation", "memory", "reach"] as const;
type Group = (typeof GROUPS)[number];

function usage(): string {
  return `usage: bun bench/run.ts [${GROUPS.join("] [")}] [--quick] [--sequential-stops]`;
}

function parseArgs(argv: string[]): { groups: Group[]; quick: boolean; sequentialStops: boolean } {
  let quick = false;
  let sequentialStops = false;
  const groups = new Set<Group>();
  for (const arg of argv) {
    if (arg === "--quick") quick = true;
    else if (arg === "--sequential-stops") sequentialStops = true;
    else if (arg === "-h" || arg === "--help") {
      console.error(usage());
      process.exit(0);
    } else if ((GROUPS as readonly string[]).includes(arg)) groups.add(arg as Group);
    else {
      console.error(`unknown argument '${arg}'\n${usage()}`);
      process.exit(2);
    }
  }
  return { groups: groups.size > 0 ? GROUPS.filter((g) => groups.has(g)) : [...GROUPS], quick, sequentialStops };
}

async function main(): Promise<number> {
  const { groups, quick, sequentialStops } = parseArgs(process.argv.slice(2));
  const cpuList = cpus();
  const report: Record<string, unknown> = {
    machine: {
      cpus: cpuList.length,
      cpu_model: cpuList[0]?.model ?? "unknown",
      bun: Bun.version,
      platform: platform(),
      arch: arch(),
      total_mem_mb: Math.round(totalmem() / 1024 / 1024),
    },
    quick,
    started_at: new Date().toISOString(),
  };
  const t0 = performance.now();

  for (const group of groups) {
    progress(`── ${group}${quick ? " (quick)" : ""}`);
    if (group === "codec") {
      report.codec = await runCodec({ durationMs: quick ? 50 : 500 });
    } else if (group === "client") {
      report.client = await runClient({
        rounds: quick ? 5 : 40,
        warmup: quick ? 1 : 3,
        rssRuns: quick ? 1 : 5,
        batches: quick ? 2 : 10,
        concurrency: 20,
      });
    } else if (group === "ping") {
      report.ping = await runPing({ durationMs: quick ? 250 : 2000, warmupPings: quick ? 20 : 200 });
    } else if (group === "startup") {
      report.startup = await runStartup({
        runs: quick ? 2 : 10,
        rssRuns: quick ? 1 : 3,
        idleMs: 1000,
        overlapStops: !sequentialStops,
      });
    } else if (group === "agent") {
      report.agent = await runAgentBench({ durationMs: quick ? 100 : 1000 });
    } else if (group === "send") {
      report.send = await runSend({
        sends: quick ? 5 : 30,
        warmupSends: quick ? 1 : 2,
        roundsK1: quick ? 10 : 50,
        roundsK100: quick ? 2 : 5,
      });
    } else if (group === "daemon") {
      report.daemon = await runDaemonBench({
        starts: quick ? 5 : 21,
        idleMs: quick ? 1000 : 3000,
        rounds: quick ? 5 : 30,
        streams: 100,
      });
    } else if (group === "soak") {
      report.soak = await runSoak({
        turns: quick ? 2000 : 10_000,
        concurrency: 8,
        idleMs: quick ? 5000 : 60_000,
        unloadAfterSecs: quick ? 2 : 30,
        burst: quick ? 200 : 1000,
      });
    } else if (group === "conversation") {
      report.conversation = await runConversation({ turns: quick ? 1000 : 10_000, block: quick ? 100 : 1000, warmup: 20, floorEvery: quick ? 10 : 50 });
    } else if (group === "reach") {
      report.reach = await runReach({
        remote: {
          pings: quick ? 200 : 2000,
          batch: quick ? 50 : 100,
          warmupPings: quick ? 20 : 200,
          turns: quick ? 20 : 300,
          warmupTurns: quick ? 3 : 10,
        },
        acp: { turns: quick ? 20 : 200, warmupTurns: quick ? 3 : 10, starts: quick ? 3 : 15 },
      });
    } else if (group === "memory") {
      report.memory = await runMemory({ quick });
    } else if (group === "search") {
      report.search = await runSearchBench({ conversations: 1000, rounds: quick ? 1 : 10 });
    } else {
      report.session = await runSession({
        loadMs: quick ? 50 : 300,
        minLoads: quick ? 3 : 5,
        appendMs: quick ? 100 : 1000,
      });
    }
  }

  if (report.client || report.daemon || report.soak || report.conversation || report.memory || report.reach) {
    // A row without a goal (the reach group's) has `met: null`: figure, floor and ratio only.
    const rows: Array<Omit<ReturnType<typeof targetTable>[number], "met"> & { met: boolean | null }> = [
      ...(report.client ? clientTargets(report.client as never) : []),
      ...targetTable(report.daemon as never, report.soak as never),
    ];
    if (report.conversation) rows.push(conversationTarget(report.conversation as never));
    if (report.memory) rows.push(...memoryTargets(report.memory as never));
    if (report.reach) rows.push(...reachRows(report.reach as never));
    report.targets = rows;
    for (const row of rows) {
      progress(
        `${row.met === null ? "       " : row.met ? "met    " : "NOT MET"} ${row.target}: ${row.figure}${row.floor ? ` [${row.floor}]` : ""} (target ${row.goal})`,
      );
    }
    // The same table in Markdown, as docs/benchmarks.md shows it.
    progress("\n| target | figure | floor (same run) | goal | |\n| --- | --- | --- | --- | --- |");
    for (const row of rows)
      progress(`| ${row.target} | ${row.figure} | ${row.floor ?? ""} | ${row.goal} | ${row.met === null ? "" : row.met ? "met" : "**not met**"} |`);
  }
  report.total_seconds = round((performance.now() - t0) / 1000, 1);
  const json = JSON.stringify(report, null, 2);
  const dir = join(import.meta.dir, "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "latest.json"), json + "\n");
  process.stdout.write(json + "\n");
  progress(`done in ${report.total_seconds} s; wrote bench/results/latest.json`);
  return 0;
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    progress(`${signal}: stopping daemons`);
    void stopAll().finally(() => process.exit(130));
  });
}

let code = 1;
try {
  code = await main();
} catch (err) {
  progress(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  code = 1;
} finally {
  await stopAll();
}
process.exit(code);
