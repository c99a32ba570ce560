// The floor of a capped answer's memory (bench/memory.ts): a Bun process of
// its own reads the same streamed answer from the same fake the way the
// daemon's OpenAI adapter does (fetch, the lean event-stream decoder of
// src/model/sse.ts, JSON.parse of each event), keeps the answer's text up to
// the cap, and aborts there. Nothing else: no session, no client, no frames.
// Prints {"idle_mib", "peak_above_idle_mib"}, its idle measured after one
// small read (as the daemon's, after one small turn).
//   bun bench/answer-floor.ts BASE_URL CAP_BYTES
import { readFileSync, writeFileSync } from "node:fs";
import { sseMessages } from "../src/model/sse.ts";

const [baseUrl, capArg] = process.argv.slice(2);
const cap = Number(capArg);
if (!baseUrl || !Number.isFinite(cap)) throw new Error("usage: bun bench/answer-floor.ts BASE_URL CAP_BYTES");

function status(field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN) / 1024;
}

/** Reads one streamed answer, keeping its text until it passes `limit` characters. */
async function read(limit: number): Promise<number> {
  const stop = new AbortController();
  const body = JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: "say a lot" }], stream: true });
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    signal: stop.signal,
  });
  const kept: string[] = [];
  let length = 0;
  try {
    for await (const event of sseMessages(res.body!)) {
      if (event.data.startsWith("[DONE]")) break;
      const text: unknown = JSON.parse(event.data).choices?.[0]?.delta?.content;
      if (typeof text !== "string") continue;
      kept.push(text);
      length += text.length;
      if (length > limit) {
        stop.abort();
        break;
      }
    }
  } catch {
    // the abort
  }
  return kept.length;
}

await read(64 * 1024);
let idle = Infinity;
for (let i = 0; i < 10; i++) {
  idle = Math.min(idle, status("VmRSS"));
  await Bun.sleep(100);
}
writeFileSync("/proc/self/clear_refs", "5"); // the peak below is the answer's (bench/memory.ts resetPeak)
await read(cap);
console.log(JSON.stringify({ idle_mib: idle, peak_above_idle_mib: status("VmHWM") - idle }));
