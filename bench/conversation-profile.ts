// Profiling aid for the conversation bench (not a benchmark group): a daemon
// run from source under `bun --cpu-prof` for `turns` turns in a conversation
// that already holds `history` turns (a session file written up front, then
// resumed), so that a profile at turn 100 and one at turn 8,000 can be
// compared. Prints the daemon's CPU per turn and its split by thread
// (/proc/<pid>/task); the profile lands in <profile-dir> when the daemon exits.
//   bun bench/conversation-profile.ts <history> <turns> <profile-dir>
// CRABTALK_NO_PROFILE=1 skips --cpu-prof (figures without the profiler's cost).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { messageToLine, metaToLine, newSessionMeta } from "../src/session/jsonl.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { answerText, conversationConfig, userText } from "./conversation.ts";
import { MAIN, spawnDaemon, stopAll, stopDaemon, trackCleanup, waitForFirstPong } from "./daemon.ts";
import { cpuMs } from "./targets.ts";

const WARMUP = 20;
const [history, turns, dir] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
if (!Number.isInteger(history) || !Number.isInteger(turns) || turns <= WARMUP || !dir) {
  console.error(`usage: bun bench/conversation-profile.ts <history turns> <turns (> ${WARMUP})> <profile-dir>`);
  process.exit(2);
}

/** CPU in ms of each of a process's threads, by thread name (numbered pool threads merged). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "#");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the thread ended
    }
  }
  return out;
}

const fake = await startFakeOpenAI();
trackCleanup(() => fake.stop());
const home = mkdtempSync(join(tmpdir(), "crabtalk-bench-"));
mkdirSync(join(home, "sessions"));
const file = "crab_longconv_1_long-one.jsonl";
const lines = [metaToLine({ ...newSessionMeta("crab", "longconv"), title: "Long one" })];
for (let n = 0; n < history; n++)
  lines.push(messageToLine({ role: "user", content: userText(n) }), messageToLine({ role: "assistant", content: answerText(n) }));
writeFileSync(join(home, "sessions", file), `${lines.join("\n")}\n`);
writeFileSync(join(home, "config.toml"), conversationConfig(fake.url));
const profile = process.env.CRABTALK_NO_PROFILE ? [] : ["--cpu-prof", `--cpu-prof-dir=${dir}`];
const d = spawnDaemon([process.execPath, ...profile, MAIN], { home });
try {
  await waitForFirstPong(d);
  const client = new Client(await connect({ unix: d.socket }));
  let session: bigint | undefined;
  const send = async (n: number) => {
    fake.script({ text: answerText(n) });
    const reply = await client.send({ agent: "crab", content: userText(n), sender: "longconv", ...(session ? { session } : { resumeFile: file }) });
    session ??= reply.session;
    fake.requests.length = 0;
  };
  for (let i = 0; i < WARMUP; i++) await send(history + i);
  const threads0 = threadCpu(d.proc.pid);
  const cpu0 = cpuMs(d.proc.pid);
  const t0 = performance.now();
  for (let i = WARMUP; i < turns; i++) await send(history + i);
  const measured = turns - WARMUP;
  console.log(
    `history ${history} turns: daemon ${((cpuMs(d.proc.pid) - cpu0) / measured).toFixed(2)} ms CPU/turn, ${((performance.now() - t0) / measured).toFixed(2)} ms wall/turn`,
  );
  for (const [name, ms] of threadCpu(d.proc.pid)) {
    const used = ms - (threads0.get(name) ?? 0);
    if (used > 0) console.log(`  thread ${name}: ${(used / measured).toFixed(2)} ms/turn`);
  }
  await client.close();
} finally {
  await stopDaemon(d); // SIGTERM: the daemon exits and writes its profile
  await stopAll();
  rmSync(home, { recursive: true, force: true });
}
