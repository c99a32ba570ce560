// The idle limit bounds the wait for each next chunk, not the whole answer: a
// stream that keeps sending within the limit is never cut however long it
// runs; one that falls silent is cut; an abort ends a wait at once.
import { expect, test } from "bun:test";
import type { Adapter } from "../../src/model/adapter.ts";
import { withStreamLimits } from "../../src/model/stream-limits.ts";
import type { StreamChunk } from "../../src/model/types.ts";

/** An adapter whose stream sends `count` chunks `gapMs` apart, then (with `stall`) never another. */
function paced(count: number, gapMs: number, stall = false): Adapter {
  return {
    baseUrl: "http://paced.invalid",
    complete: () => Promise.reject(new Error("not used")),
    async *stream(): AsyncGenerator<StreamChunk> {
      for (let i = 0; i < count; i++) {
        await Bun.sleep(gapMs);
        yield { type: "text", text: `w${i} ` };
      }
      if (stall) await new Promise(() => {});
    },
  };
}

async function collect(adapter: Adapter, idleMs: number, signal?: AbortSignal): Promise<string> {
  let text = "";
  for await (const c of withStreamLimits(adapter, { idleMs, maxAnswerBytes: 0 }).stream({ model: "m", messages: [], signal })) {
    if (c.type === "text") text += c.text;
  }
  return text;
}

test("chunks that keep coming within the idle limit are all delivered, the whole answer taking longer than the limit", async () => {
  // 15 chunks 100 ms apart: 1.5 s in all against a 1 s limit on each wait.
  expect(await collect(paced(15, 100), 1000)).toBe(Array.from({ length: 15 }, (_, i) => `w${i} `).join(""));
});

test("a stream falling silent after some chunks ends with the idle error", async () => {
  await expect(collect(paced(3, 10, true), 300)).rejects.toThrow("idle for more than 0.3s");
});

test("an abort while waiting for a chunk ends the wait as aborted", async () => {
  const stop = new AbortController();
  const run = collect(paced(2, 10, true), 0, stop.signal);
  await Bun.sleep(100);
  stop.abort();
  await expect(run).rejects.toThrow("aborted");
});
