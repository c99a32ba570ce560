// The lean event-stream decoder (src/model/sse.ts) against the OpenAI SDK's
// own (_iterSSEMessages, which the SDK's Stream reads chat chunks with): the
// same messages for any body, cut into reads anywhere.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { _iterSSEMessages } from "openai/core/streaming";
import { sseMessages } from "../../src/model/sse.ts";

function body(reads: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < reads.length) controller.enqueue(reads[i++]);
      else controller.close();
    },
  });
}

/** `bytes` cut at `cuts` (positions, any order, duplicates allowed). */
function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.slice(start, c));
    start = c;
  }
  return out;
}

async function ours(reads: Uint8Array[]) {
  const out: { event: string | null; data: string }[] = [];
  for await (const m of sseMessages(body(reads))) out.push(m);
  return out;
}

async function sdk(reads: Uint8Array[]) {
  const out: { event: string | null; data: string }[] = [];
  for await (const m of _iterSSEMessages(new Response(body(reads)), new AbortController())) out.push({ event: m.event, data: m.data });
  return out;
}

const enc = (s: string) => new TextEncoder().encode(s);

/** Lines as a provider (or a hostile one) may send them. */
const line = fc.oneof(
  fc.constantFrom("", "data: [DONE]", ": keep-alive", "event: error", "event: thread.run", "event:", "data:", "data", "id: 7", "retry: 10"),
  fc.string({ unit: "binary", maxLength: 12 }).map((s) => `data: ${s}`),
  fc.string({ unit: "binary", maxLength: 12 }).map((s) => `data:${s}`),
  fc.string({ unit: "binary", maxLength: 12 }).map((s) => `event: ${s}`),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("\uFEFFdata: bom first", "data: \uFEFFbom inside", "data: a:b: c", "data:  two spaces"),
);
const newline = fc.constantFrom("\n", "\r\n", "\r");

describe("sseMessages", () => {
  test("property: the same messages as the SDK's decoder, however the body is cut into reads", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(line, newline), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), async (lines, cuts) => {
        const bytes = enc(lines.map(([l, nl]) => l + nl).join(""));
        const reads = cut(bytes, cuts);
        expect(await ours(reads)).toEqual(await sdk([bytes]));
      }),
      { numRuns: 500 },
    );
  });

  test("a message split across reads, CRLF cut between its CR and LF, multi-line data joined", async () => {
    const bytes = enc('event: x\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: é😀\n\n');
    const at = bytes.indexOf(10); // the LF after the first CR
    const reads = [bytes.slice(0, at), bytes.slice(at, at + 9), bytes.slice(at + 9)];
    expect(await ours(reads)).toEqual([
      { event: "x", data: '{"a":\n1}' },
      { event: null, data: "é😀" },
    ]);
  });

  test("a multi-byte character cut by a read comes out whole", async () => {
    const bytes = enc("data: 😀\n\n");
    expect(await ours([bytes.slice(0, 8), bytes.slice(8)])).toEqual([{ event: null, data: "😀" }]);
  });

  test("an unfinished last message is dropped, as the SDK drops it", async () => {
    expect(await ours([enc("data: one\n\ndata: two\n")])).toEqual([{ event: null, data: "one" }]);
  });

  test("stopping early cancels the body", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(enc("data: more\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const m of sseMessages(stream)) {
      expect(m.data).toBe("more");
      break;
    }
    expect(cancelled).toBe(true);
  });

  describe("a line limit", () => {
    const limit = { maxBytes: 100, tooLarge: () => new Error("line over 100 bytes") };
    const read = async (reads: Uint8Array[]) => {
      const got: string[] = [];
      try {
        for await (const m of sseMessages(body(reads), limit)) got.push(m.data);
        return { got };
      } catch (err) {
        return { got, error: (err as Error).message };
      }
    };

    test("lines up to the limit pass, in one read or across many", async () => {
      const line = `data: ${"a".repeat(94)}`; // 100 bytes
      expect(await read([enc(`${line}\n\n${line}\n\n`)])).toEqual({ got: ["a".repeat(94), "a".repeat(94)] });
      expect(await read(cut(enc(`${line}\n\n`), [7, 30, 60, 99]))).toEqual({ got: ["a".repeat(94)] });
    });

    test("a longer line fails once it passes the limit, whole in one read or still coming", async () => {
      const long = `data: ${"b".repeat(95)}\n\n`;
      expect(await read([enc(`data: ok\n\n${long}`)])).toEqual({ got: ["ok"], error: "line over 100 bytes" });
      // An endless line is refused as soon as it has passed the limit: the reads after it are never asked for.
      let reads = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          reads++;
          controller.enqueue(enc("c".repeat(30)));
        },
      });
      await expect(Array.fromAsync(sseMessages(endless, limit))).rejects.toThrow("line over 100 bytes");
      expect(reads).toBe(4);
    });
  });
});
