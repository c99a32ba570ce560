// A whole answer's body is bounded by its longest line (src/model/bounded-lines.ts).
import { describe, expect, test } from "bun:test";
import { boundedLines } from "../../src/model/bounded-lines.ts";

const limit = { maxLineBytes: 100, tooLong: () => new Error("line over 100 bytes") };

/** A fetch answering with `reads`, one read each, counting the reads asked for. */
function serving(reads: string[], status = 200) {
  const served = { reads: 0, cancelled: false };
  const fetchFn = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (served.reads === reads.length) return controller.close();
          controller.enqueue(new TextEncoder().encode(reads[served.reads++]));
        },
        cancel: () => void (served.cancelled = true),
      }),
      { status },
    );
  return { served, fetch: boundedLines(limit, fetchFn) };
}

describe("boundedLines", () => {
  test("lines up to the limit pass whole, in one read or across many", async () => {
    const line = "a".repeat(100);
    const { fetch } = serving([`${line}\n${line.slice(0, 40)}`, line.slice(40), `\n${line}`]);
    expect(await (await fetch("http://x")).text()).toBe(`${line}\n${line}\n${line}`);
  });

  test("a line past the limit fails the body and cancels the rest", async () => {
    const { served, fetch } = serving(["ok\n", "b".repeat(60), "b".repeat(60), "b".repeat(60), "never read"]);
    await expect((await fetch("http://x")).text()).rejects.toThrow("line over 100 bytes");
    // The line passed the limit in the third read; a stream may ask one read ahead, never more.
    expect(served.reads).toBeLessThanOrEqual(4);
    expect(served.cancelled).toBe(true);
  });

  test("an error response is handed on untouched, whatever its lines", async () => {
    const long = "c".repeat(500);
    const { fetch } = serving([long], 500);
    const res = await fetch("http://x");
    expect(res.status).toBe(500);
    expect(await res.text()).toBe(long);
  });
});
