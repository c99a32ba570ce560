// Memory that no input can blow up (`bun run bench memory`): each case runs a
// fresh daemon, measures its idle memory as the floor, feeds it one hostile
// input and prints the figures against their goals (docs/benchmarks.md).
//   - a 200 MB session file: the daemon's memory at start with it in
//     sessions/, the first chunk of a resumed answer, the peak, and the
//     memory once the session unloads;
//   - a 20 MiB streamed answer against a 12 MiB max_answer_bytes, and against
//     the default 4 MiB: the peak;
//   - another OS user flooding the TCP port with connects, all refused
//     (bench/refused-flood.ts): memory and the owner's Ping against a floor.
// Memory is read from /proc (VmRSS, VmHWM for the peak), outside the daemon.
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { messageToLine, metaToLine, newSessionMeta } from "../src/session/jsonl.ts";
import { sessionFileName } from "../src/session/names.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import type { FakeLLM } from "../test/support/fake-llm.ts";
import { providerTable } from "../test/support/llm-daemon.ts";
import { compiledBinary, SOURCE_COMMAND, spawnDaemon, stopDaemon, waitForFirstPong, type BenchDaemon } from "./daemon.ts";
import { floodOptions, refusedFlood } from "./refused-flood.ts";
import { progress, round } from "./stats.ts";

const MIB = 1024 * 1024;

function status(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(text)?.[1] ?? NaN) / 1024;
}

/** Waits until `probe` is true or `ms` pass; false on timeout. */
async function until(probe: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await probe()) return true;
    await Bun.sleep(100);
  }
  return false;
}

/** Sets VmHWM back to the current VmRSS (proc(5), clear_refs "5"). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** Idle VmRSS: the lowest of a few reads a short while apart, once the start-up work settled. */
async function idleRss(pid: number): Promise<number> {
  let low = Infinity;
  for (let i = 0; i < 10; i++) {
    low = Math.min(low, status(pid, "VmRSS"));
    await Bun.sleep(200);
  }
  return low;
}

function writeHugeSession(path: string, bytes: number): number {
  const fd = openSync(path, "w", 0o600);
  let written = 0;
  let count = 0;
  try {
    written += writeSync(fd, `${metaToLine(newSessionMeta("crab", "bench"))}\n`);
    const pad = "lorem ipsum dolor sit amet ".repeat(178); // about 4.8 KB, as the report's file
    while (written < bytes) {
      const lines: string[] = [];
      for (let i = 0; i < 1000; i++) lines.push(messageToLine({ role: "user", content: `message ${count++} ${pad}` }));
      written += writeSync(fd, `${lines.join("\n")}\n`);
    }
  } finally {
    closeSync(fd);
  }
  return count;
}

async function client(d: BenchDaemon): Promise<Client> {
  return new Client(await connect({ unix: d.socket }));
}

async function hugeSession(command: string[], fileBytes: number) {
  const fake = await startFakeOpenAI();
  const config = `${providerTable("fake", "openai", fake)}\n\n[system.crab]\nmodel = "fake-model"\n\n[system.sessions]\nunload_after = 2\n`;
  // The floor: the same daemon with an empty sessions/.
  const bare = spawnDaemon(command, { config });
  await waitForFirstPong(bare);
  const idle = await idleRss(bare.proc.pid);
  await stopDaemon(bare);

  const d = spawnDaemon(command, { config });
  await waitForFirstPong(d);
  await stopDaemon(d, 6000, true);
  const sessions = join(d.home, "sessions");
  mkdirSync(sessions, { recursive: true });
  const file = join(sessions, sessionFileName("crab", "bench", 1));
  progress(`memory: writing a ${fileBytes / MIB} MiB session file`);
  const messages = writeHugeSession(file, fileBytes);
  const again = spawnDaemon(command, { config, home: d.home });
  try {
    await waitForFirstPong(again);
    const c = await client(again);
    // The search index reads sessions/ in the background at start: wait for it, then read.
    await c.searchSessions({ query: "lorem", limit: 1 });
    const atStart = await idleRss(again.proc.pid);
    fake.script({ text: "resumed" });
    const sent = performance.now();
    let firstChunk = NaN;
    for await (const ev of c.stream({ agent: "crab", content: "and now?", sender: "bench", resumeFile: file })) {
      if (Number.isNaN(firstChunk) && ev.event.case === "chunk") firstChunk = performance.now() - sent;
      if (ev.event.case === "end") break;
    }
    const peak = status(again.proc.pid, "VmHWM");
    // Unloaded after unload_after (2 s) idle: no longer listed by Sessions.
    await until(async () => (await c.sessions()).length === 0, 30_000);
    const afterUnload = await idleRss(again.proc.pid);
    await c.close();
    return {
      file_mib: round(fileBytes / MIB, 0),
      messages,
      idle_rss_mib: round(idle, 1),
      start_with_file_above_idle_mib: round(atStart - idle, 1),
      first_chunk_ms: round(firstChunk, 0),
      peak_above_idle_mib: round(peak - idle, 1),
      after_unload_above_idle_mib: round(afterUnload - idle, 1),
    };
  } finally {
    await stopDaemon(again);
    await fake.stop();
  }
}

/**
 * A daemon's peak over a 20 MiB streamed answer against `capBytes`, above its
 * idle: the answer being its first turn (`warmFirst` false), or after one
 * small turn (the code paged in, the provider client made: about 20 MiB a
 * first turn costs any answer), with the peak counted from there.
 */
async function answerPeak(command: string[], fake: FakeLLM, answerBytes: number, capBytes: number, warmFirst: boolean) {
  const config = `${providerTable("fake", "openai", fake)}\nmax_answer_bytes = ${capBytes}\n\n[system.crab]\nmodel = "fake-model"\n`;
  const d = spawnDaemon(command, { config });
  try {
    await waitForFirstPong(d);
    let idle = await idleRss(d.proc.pid);
    const c = await client(d);
    if (warmFirst) {
      fake.script({ text: "warm ".repeat(2000) });
      for await (const ev of c.stream({ agent: "crab", content: "warm up", sender: "bench" })) if (ev.event.case === "end") break;
      idle = await idleRss(d.proc.pid);
      resetPeak(d.proc.pid); // the peak below is the answer's, not the first turn's
    }
    fake.script({ hugeText: answerBytes });
    let error = "";
    for await (const ev of c.stream({ agent: "crab", content: "say a lot", sender: "bench" })) {
      if (ev.event.case === "end") {
        error = ev.event.value.error;
        break;
      }
    }
    const peak = status(d.proc.pid, "VmHWM");
    await c.close();
    return { idle, above: peak - idle, capError: error.includes("max_answer_bytes") };
  } finally {
    await stopDaemon(d);
  }
}

/**
 * A capped answer's memory: the daemon's peak above its idle with the answer
 * as its first turn, and after a first small turn next to the floor, a Bun
 * process that only reads the same answer up to the cap (bench/answer-floor.ts),
 * measured the same way.
 */
async function cappedAnswer(command: string[], answerBytes: number, capBytes: number) {
  const fake = await startFakeOpenAI();
  try {
    const first = await answerPeak(command, fake, answerBytes, capBytes, false);
    const warm = await answerPeak(command, fake, answerBytes, capBytes, true);
    fake.script({ hugeText: answerBytes }, { hugeText: answerBytes });
    const floorRun = Bun.spawn([process.execPath, join(import.meta.dir, "answer-floor.ts"), fake.url, String(capBytes)], { stdout: "pipe", stderr: "inherit" });
    const floor = JSON.parse(await new Response(floorRun.stdout).text()) as { idle_mib: number; peak_above_idle_mib: number };
    const capMib = capBytes / MIB;
    return {
      answer_mib: round(answerBytes / MIB, 0),
      cap_mib: round(capMib, 0),
      ended_with_cap_error: first.capError && warm.capError,
      idle_rss_mib: round(first.idle, 1),
      peak_above_idle_mib: round(first.above, 1),
      peak_over_cap: round(first.above / capMib, 2),
      warm_idle_rss_mib: round(warm.idle, 1),
      peak_above_warm_mib: round(warm.above, 1),
      floor_peak_above_idle_mib: round(floor.peak_above_idle_mib, 1),
      warm_over_floor: round(warm.above / floor.peak_above_idle_mib, 2),
    };
  } finally {
    await fake.stop();
  }
}

export const MEMORY_GOALS = {
  "200 MB session: first chunk": "≤ 2000 ms",
  "200 MB session: peak above idle": "≤ 256 MiB",
  "200 MB session: after unload above idle": "≤ 32 MiB",
  "20 MiB answer, 12 MiB cap: peak above idle": "≤ 3 × cap (36 MiB)",
  "20 MiB answer, default 4 MiB cap: peak above idle": "≤ 3 × cap (12 MiB)",
  "refused-connection flood: daemon CPU per refusal": "almost nothing",
  "refused-connection flood: owner's Ping p50 under flood / floor": "≤ ×2",
};

/** A capped answer's figures in one cell: above idle, and above a warm daemon against the floor. */
export function cappedFigure(a: Awaited<ReturnType<typeof cappedAnswer>>): string {
  return `${a.peak_above_idle_mib} MiB (${a.peak_over_cap} × cap); after a first turn +${a.peak_above_warm_mib} MiB, ×${a.warm_over_floor} of the floor's +${a.floor_peak_above_idle_mib}`;
}

export async function runMemory(options: { quick: boolean }) {
  const command = compiledBinary() ? [compiledBinary()!] : SOURCE_COMMAND;
  const fileBytes = options.quick ? 40 * MIB : 200 * MIB;
  progress(`memory: ${command.length === 1 ? "compiled binary" : "from source"}`);
  const session = await hugeSession(command, fileBytes);
  progress(`memory: huge session ${JSON.stringify(session)}`);
  const answer = await cappedAnswer(command, 20 * MIB, 12 * MIB);
  progress(`memory: capped answer ${JSON.stringify(answer)}`);
  const atDefault = await cappedAnswer(command, 20 * MIB, 4 * MIB);
  progress(`memory: capped answer at the default cap ${JSON.stringify(atDefault)}`);
  const flood = await refusedFlood(floodOptions(options.quick));
  progress(`memory: refused-connection flood ${JSON.stringify(flood)}`);
  const table = [
    ["200 MB session: daemon at start with it in sessions/, above idle", `${session.start_with_file_above_idle_mib} MiB`, "bounded"],
    ["200 MB session: first chunk", `${session.first_chunk_ms} ms`, MEMORY_GOALS["200 MB session: first chunk"]],
    ["200 MB session: peak above idle", `${session.peak_above_idle_mib} MiB (idle ${session.idle_rss_mib})`, MEMORY_GOALS["200 MB session: peak above idle"]],
    ["200 MB session: after unload above idle", `${session.after_unload_above_idle_mib} MiB`, MEMORY_GOALS["200 MB session: after unload above idle"]],
    ["20 MiB answer, 12 MiB cap: peak above idle", cappedFigure(answer), MEMORY_GOALS["20 MiB answer, 12 MiB cap: peak above idle"]],
    ["20 MiB answer, default 4 MiB cap: peak above idle", cappedFigure(atDefault), MEMORY_GOALS["20 MiB answer, default 4 MiB cap: peak above idle"]],
    ["refused-connection flood: refused per second", `${flood.refused_per_s}/s`, "—"],
    [
      "refused-connection flood: daemon CPU per refusal",
      `${flood.daemon_cpu_per_refusal_us} µs`,
      MEMORY_GOALS["refused-connection flood: daemon CPU per refusal"],
    ],
    ["refused-connection flood: RSS before / peak / after", `${flood.rss_before_mib} / ${flood.rss_peak_mib} / ${flood.rss_after_mib} MiB`, "bounded"],
    [
      "refused-connection flood: owner's Ping p50 under flood / floor",
      `×${flood.ping_p50_ratio} (${flood.ping_flood_p50_ms} / ${flood.ping_floor_p50_ms} ms)`,
      MEMORY_GOALS["refused-connection flood: owner's Ping p50 under flood / floor"],
    ],
    [
      "refused-connection flood: owner's Ping p99 under flood / floor",
      `×${flood.ping_p99_ratio} (${flood.ping_flood_p99_ms} / ${flood.ping_floor_p99_ms} ms)`,
      "—",
    ],
    [
      "refused-connection flood: owner's fresh connection p50 / floor",
      `×${flood.fresh_p50_ratio} (${flood.fresh_flood_p50_ms} / ${flood.fresh_floor_p50_ms} ms)`,
      "—",
    ],
  ];
  for (const [what, value, goal] of table) console.error(`  ${what.padEnd(66)} ${value.padEnd(26)} goal ${goal}`);
  return { session, answer, atDefault, flood };
}

if (import.meta.main) {
  const result = await runMemory({ quick: process.argv.includes("--quick") });
  console.log(JSON.stringify(result, null, 2));
}
