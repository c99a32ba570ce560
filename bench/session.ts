// The session file layer, in-process on a temporary directory: load time by
// file size, and append throughput one message per call and ten per call.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../src/model/types.ts";
import { appendMessages, createSessionFile, loadSessionFile } from "../src/session/file.ts";
import { newSessionMeta } from "../src/session/jsonl.ts";
import { trackCleanup } from "./daemon.ts";
import { mean, min, progress, round } from "./stats.ts";
import { timeAsync } from "./timing.ts";

export interface SessionOptions {
  /** Load-time budget per file size, in ms (at least `minLoads` loads). */
  loadMs: number;
  minLoads: number;
  /** Measured time per append case, in ms. */
  appendMs: number;
}

const SIZES = [10, 100, 1000, 5000];

interface LoadResult {
  mean_ms: number;
  min_ms: number;
  loads: number;
  file_kb: number;
  avg_line_bytes: number;
}

const WORDS = (
  "the daemon keeps one session file per conversation and appends each step as json lines so a crash " +
  "leaves at most a torn last line which the loader skips while reading every message back in order"
).split(" ");

/** Deterministic filler text of about `bytes` bytes (varies with `seed`). */
function prose(bytes: number, seed: number): string {
  const out: string[] = [];
  let len = 0;
  for (let i = seed; len < bytes; i += 7) {
    const w = WORDS[(i * 31 + seed) % WORDS.length];
    out.push(w);
    len += w.length + 1;
  }
  return out.join(" ");
}

function callId(i: number): string {
  return `call_${i.toString(36).padStart(8, "0")}`;
}

/**
 * The i-th message of a realistic cycle, each line ~200–500 bytes: user
 * question, assistant tool call, tool result, assistant answer.
 */
export function sampleMessage(i: number): Message {
  const id = callId(i);
  const word = WORDS[i % WORDS.length];
  switch (i % 4) {
    case 0:
      return { role: "user", content: prose(180 + (i % 5) * 20, i) };
    case 1:
      return {
        role: "assistant",
        content: prose(120, i),
        toolCalls: [{ id, name: "bash", arguments: JSON.stringify({ command: `grep -rn "${word}" src | head -20` }) }],
      };
    case 2:
      return { role: "tool", content: prose(320 + (i % 3) * 40, i), toolCallId: callId(i - 1), name: "bash" };
    default:
      return { role: "assistant", content: prose(260 + (i % 4) * 30, i) };
  }
}

async function writeSession(path: string, count: number): Promise<void> {
  await createSessionFile(path, newSessionMeta("bench", "bench"));
  const BATCH = 100;
  for (let i = 0; i < count; i += BATCH) {
    const batch: Message[] = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) batch.push(sampleMessage(j));
    await appendMessages(path, batch);
  }
}

async function appendThroughput(dir: string, name: string, perCall: number, durationMs: number) {
  const path = join(dir, name);
  await createSessionFile(path, newSessionMeta("bench", "bench"));
  let next = 0;
  const { samplesUs, seconds } = await timeAsync(
    () => {
      const batch: Message[] = [];
      for (let j = 0; j < perCall; j++) batch.push(sampleMessage(next++));
      return appendMessages(path, batch);
    },
    { durationMs },
  );
  const messages = samplesUs.length * perCall;
  // Sanity: everything written (warm-up included) loads back.
  const loaded = await loadSessionFile(path);
  if (loaded.messages.length !== next) {
    throw new Error(`session bench: ${name} holds ${loaded.messages.length} of ${next} messages`);
  }
  return {
    messages_per_second: round(messages / seconds, 0),
    mean_us_per_call: round(mean(samplesUs), 1),
    messages_per_call: perCall,
    calls: samplesUs.length,
    seconds: round(seconds, 3),
  };
}

export async function runSession(options: SessionOptions) {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-bench-session-"));
  const release = trackCleanup(() => rmSync(dir, { recursive: true, force: true }));
  try {
    const load: Record<string, LoadResult> = {};
    for (const count of SIZES) {
      const path = join(dir, `load-${count}.jsonl`);
      await writeSession(path, count);
      const first = await loadSessionFile(path); // warm-up and sanity check
      if (first.messages.length !== count) {
        throw new Error(`session bench: loaded ${first.messages.length} of ${count} messages`);
      }
      const times: number[] = [];
      const deadline = performance.now() + options.loadMs;
      while (times.length < options.minLoads || performance.now() < deadline) {
        const t0 = performance.now();
        await loadSessionFile(path);
        times.push(performance.now() - t0);
        if (times.length >= 10_000) break;
      }
      const bytes = statSync(path).size;
      load[`${count}_messages`] = {
        mean_ms: round(mean(times), 3),
        min_ms: round(min(times), 3),
        loads: times.length,
        file_kb: round(bytes / 1024, 1),
        avg_line_bytes: round(bytes / (count + 1), 0),
      };
      progress(`session load ${count} messages: mean ${mean(times).toFixed(3)} ms over ${times.length} loads`);
    }

    const single = await appendThroughput(dir, "append-1.jsonl", 1, options.appendMs);
    progress(`session append 1/call: ${single.messages_per_second} messages/s`);
    const batched = await appendThroughput(dir, "append-10.jsonl", 10, options.appendMs);
    progress(`session append 10/call: ${batched.messages_per_second} messages/s`);

    return {
      load,
      append: { one_per_call: single, ten_per_call: batched },
      notes: [
        "in-process on a temp dir (tmpdir()); loadSessionFile = read + parse the whole file, mean over repeated loads (page cache warm)",
        "messages cycle user / assistant with a tool call / tool result / assistant answer, ~200-500 bytes per line",
        "append = appendMessages(path, batch) awaited in a loop (no fsync); each call opens, stats, reads the last byte, writes, closes",
      ],
    };
  } finally {
    await release();
  }
}
