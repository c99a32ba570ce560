// Only the 100-stream part of `bench daemon` (bench/targets.ts concurrentStreams):
// daemon CPU per turn and added first-chunk latency against the harness floor.
// Usage:
//   bun bench/streams.ts [--source] [--rounds N] [--streams K] [--profile DIR] [--new-chats | --only-new-chats]
// --source runs `bun src/main.ts` instead of dist/crabtalk; --profile DIR runs the
// source daemon under `bun --cpu-prof` and leaves its .cpuprofile in DIR (then
// `bun bench/cpuprofile.ts DIR/*.cpuprofile` summarises it). Profiling inflates
// every figure: compare profiles with profiles only.
// --new-chats also measures CPU per one-shot turn in a new conversation (each
// stream a new sender every round), background title requests included.
import { resolve } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { isTitleRequest } from "../test/support/fake-llm.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { SOURCE_COMMAND, compiledBinary, MAIN, spawnDaemon, stopAll, stopDaemon, trackCleanup, waitForFirstPong } from "./daemon.ts";
import { streamRound } from "./send.ts";
import { median, progress, round } from "./stats.ts";
import { concurrentStreams, cpuMs } from "./targets.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** CPU per turn when every turn opens a new conversation (its file, its title request). */
async function newChats(command: string[], rounds: number, k: number) {
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const d = spawnDaemon(command, {
    config: `[provider.fake]\napi_key = "bench"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`,
  });
  const clients: Client[] = [];
  try {
    await waitForFirstPong(d);
    for (let i = 0; i < k; i++) clients.push(new Client(await connect({ unix: d.socket })));
    const settled = async (requests: number) => {
      while (fake.requests.length < requests) await Bun.sleep(2);
    };
    const perTurn: number[] = [];
    for (let r = -2; r < rounds; r++) {
      const before = cpuMs(d.proc.pid);
      const requestsBefore = fake.requests.length;
      await streamRound(clients, fake, `new${r}`);
      await settled(requestsBefore + 2 * k); // each turn's title request too
      await Bun.sleep(50);
      if (r >= 0) perTurn.push((cpuMs(d.proc.pid) - before) / k);
    }
    const titles = fake.requests.filter((q) => isTitleRequest(q.body)).length;
    const result = {
      cpu_per_turn_ms: round(median(perTurn), 3),
      provider_requests_per_turn: round(fake.requests.length / ((rounds + 2) * k), 2),
      title_requests_per_turn: round(titles / ((rounds + 2) * k), 2),
    };
    progress(
      `new chats: CPU ${result.cpu_per_turn_ms} ms/turn, ${result.provider_requests_per_turn} provider requests per turn (${result.title_requests_per_turn} titles)`,
    );
    return result;
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await stopDaemon(d);
    await releaseFake();
  }
}

const rounds = Number(arg("--rounds") ?? 30);
const streams = Number(arg("--streams") ?? 100);
const profileDir = arg("--profile");
let command: string[];
if (profileDir) command = [process.execPath, "--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`, MAIN];
else if (process.argv.includes("--source")) command = SOURCE_COMMAND;
else command = compiledBinary() ? [compiledBinary()!] : SOURCE_COMMAND;

try {
  const result = process.argv.includes("--only-new-chats") ? {} : await concurrentStreams({ starts: 0, idleMs: 0, rounds, streams }, command);
  const fresh = process.argv.some((a) => a.endsWith("new-chats")) ? { new_chats: await newChats(command, Math.min(rounds, 10), streams) } : {};
  console.log(JSON.stringify({ command: command.join(" ").replace(process.execPath, "bun"), ...result, ...fresh }, null, 2));
} finally {
  await stopAll();
}
