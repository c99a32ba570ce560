// First-call cost of each provider SDK: the time and memory a fresh process
// spends importing the adapter (and with it the SDK) and building a client,
// next to the same process importing nothing (the floor), as a ratio.
// Median of many runs. Run: npx bun bench/sdk.ts [runs]
import { join } from "node:path";
import { median, round } from "./stats.ts";

const REPO = join(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 15);

const ADAPTERS: Record<string, string> = {
  floor: "",
  openai: `(await import("${REPO}/src/model/openai/adapter.ts")).createOpenAIAdapter({ name: "p", kind: "openai", apiKey: "k", models: ["m"] });`,
  anthropic: `(await import("${REPO}/src/model/anthropic/adapter.ts")).createAnthropicAdapter({ name: "p", kind: "anthropic", apiKey: "k", models: ["m"] });`,
  google: `(await import("${REPO}/src/model/gemini/adapter.ts")).createGeminiAdapter({ name: "p", kind: "google", apiKey: "k", models: ["m"] });`,
  bedrock: `(await import("${REPO}/src/model/bedrock/adapter.ts")).createBedrockAdapter({ name: "p", kind: "bedrock", region: "us-east-1", accessKey: "a", secretKey: "s", models: ["m"] });`,
};

/** One fresh process: ms spent on the import and client, and its RSS afterwards (MB). */
async function once(code: string): Promise<{ ms: number; rssMb: number }> {
  const script = `const t0 = performance.now(); ${code} const ms = performance.now() - t0; console.log(JSON.stringify({ ms, rssMb: process.memoryUsage.rss() / 2 ** 20 }));`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit", cwd: REPO });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return JSON.parse(out);
}

const results: Record<string, { ms: number; rssMb: number }> = {};
for (const [name, code] of Object.entries(ADAPTERS)) {
  const ms: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await once(code);
    ms.push(r.ms);
    rss.push(r.rssMb);
  }
  results[name] = { ms: median(ms), rssMb: median(rss) };
}
const floor = results.floor ?? { ms: 0, rssMb: 1 };
console.log(`first-call cost per provider SDK (median of ${RUNS} fresh processes; floor = a process importing nothing)`);
console.log("sdk        import+client ms   RSS MB   RSS / floor   extra RSS MB");
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(10)} ${String(round(r.ms, 1)).padStart(16)}   ${String(round(r.rssMb, 1)).padStart(6)}   ${String(round(r.rssMb / floor.rssMb, 2)).padStart(11)}   ${String(round(r.rssMb - floor.rssMb, 1)).padStart(12)}`,
  );
}
