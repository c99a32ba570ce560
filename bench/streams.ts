// Only the 100-stream part of `bench daemon` (bench/targets.ts concurrentStreams):
// daemon CPU per turn and added first-chunk latency against the harness floor.
// Usage:
//   bun bench/streams.ts [--source] [--rounds N] [--streams K] [--profile DIR]
// --source runs `bun src/main.ts` instead of dist/crabtalk; --profile DIR runs the
// source daemon under `bun --cpu-prof` and leaves its .cpuprofile in DIR (then
// `bun bench/cpuprofile.ts DIR/*.cpuprofile` summarises it). Profiling inflates
// every figure: compare profiles with profiles only.
import { resolve } from "node:path";
import { SOURCE_COMMAND, compiledBinary, MAIN, stopAll } from "./daemon.ts";
import { concurrentStreams } from "./targets.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rounds = Number(arg("--rounds") ?? 30);
const streams = Number(arg("--streams") ?? 100);
const profileDir = arg("--profile");
let command: string[];
if (profileDir) command = [process.execPath, "--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`, MAIN];
else if (process.argv.includes("--source")) command = SOURCE_COMMAND;
else command = compiledBinary() ? [compiledBinary()!] : SOURCE_COMMAND;

try {
  const result = await concurrentStreams({ starts: 0, idleMs: 0, rounds, streams }, command);
  console.log(JSON.stringify({ command: command.join(" ").replace(process.execPath, "bun"), ...result }, null, 2));
} finally {
  await stopAll();
}
