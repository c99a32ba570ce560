// What the tool sandbox costs per bash call: `bash -c true` under bubblewrap
// against the same call unsandboxed (the floor), measured alternately in the
// same run; medians of many calls, and their ratio. Needs a working bwrap.
// Usage: bun bench/sandbox.ts [--quick]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeSandbox } from "../src/base/sandbox-probe.ts";
import { runBash } from "../src/runtime/tools/bash.ts";
import type { SandboxDecision } from "../src/runtime/tool-policy.ts";
import { percentile, round, sorted } from "./stats.ts";

const runs = process.argv.includes("--quick") ? 20 : 100;
const found = probeSandbox(process.env);
if (found.kind !== "bwrap") {
  console.error(`no working bwrap: ${found.kind === "none" ? found.reason : found.kind}`);
  process.exit(1);
}
const cwd = mkdtempSync(join(tmpdir(), "crabtalk-bench-sandbox-"));
const sandboxed: SandboxDecision = { kind: "bwrap", command: found.command, spec: { writable: [], hidden: [join(cwd, "..", "nonexistent")], network: true } };
const offline: SandboxDecision = { ...sandboxed, spec: { ...sandboxed.spec, network: false } };
const signal = new AbortController().signal;

async function once(sandbox: SandboxDecision | undefined): Promise<number> {
  const t0 = Bun.nanoseconds();
  const r = await runBash("true", { cwd, env: {}, sandbox, timeoutSecs: 30, signal });
  if (r.isError) throw new Error(r.output);
  return (Bun.nanoseconds() - t0) / 1e6;
}

const samples = { plain: [] as number[], bwrap: [] as number[], bwrap_no_network: [] as number[] };
for (let i = 0; i < 5; i++) await Promise.all([once(undefined), once(sandboxed)]); // warm-up
for (let i = 0; i < runs; i++) {
  samples.plain.push(await once(undefined));
  samples.bwrap.push(await once(sandboxed));
  samples.bwrap_no_network.push(await once(offline));
}
rmSync(cwd, { recursive: true, force: true });
const median = (xs: number[]) => round(percentile(sorted(xs), 50, true), 2);
const floor = median(samples.plain);
console.log(
  JSON.stringify(
    {
      runs,
      bash_true_unsandboxed_p50_ms: floor,
      bash_true_bwrap_p50_ms: median(samples.bwrap),
      bash_true_bwrap_no_network_p50_ms: median(samples.bwrap_no_network),
      ratio_bwrap: round(median(samples.bwrap) / floor, 2),
      ratio_bwrap_no_network: round(median(samples.bwrap_no_network) / floor, 2),
    },
    null,
    2,
  ),
);
