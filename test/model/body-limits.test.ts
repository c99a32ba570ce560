// How much of an answer body is read (src/model/body-limits.ts): a whole
// answer up to its limit and no further, an error body up to 64 KiB.
import { describe, expect, test } from "bun:test";
import { errorBodyText, MAX_ERROR_BODY_BYTES, wholeBodyText } from "../../src/model/body-limits.ts";

const limit = { maxBytes: 100, tooLarge: () => new Error("answer over 100 bytes") };

/** A response serving `reads`, one read each, counting the reads asked for. */
function serving(reads: string[], status = 200) {
  const served = { reads: 0, cancelled: false };
  const response = new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (served.reads === reads.length) return controller.close();
        controller.enqueue(new TextEncoder().encode(reads[served.reads++]));
      },
      cancel: () => void (served.cancelled = true),
    }),
    { status },
  );
  return { served, response };
}

describe("wholeBodyText", () => {
  test("a body up to the limit is read whole, in one read or many", async () => {
    expect(await wholeBodyText(serving(["a".repeat(100)]).response, limit)).toBe("a".repeat(100));
    expect(await wholeBodyText(serving(["ü".repeat(20), "\n", "ü".repeat(20)]).response, limit)).toBe(`${"ü".repeat(20)}\n${"ü".repeat(20)}`);
  });

  test("a body past the limit fails as soon as it passes it, the rest cancelled, unread", async () => {
    const { served, response } = serving(["b\n".repeat(30), "b\n".repeat(30), "never read", "never read"]);
    await expect(wholeBodyText(response, limit)).rejects.toThrow("answer over 100 bytes");
    expect(served.reads).toBeLessThanOrEqual(3);
    expect(served.cancelled).toBe(true);
  });

  test("no limit (no answer cap): read whole", async () => {
    const text = "c".repeat(10_000);
    expect(await wholeBodyText(serving([text]).response, { ...limit, maxBytes: 0 })).toBe(text);
  });
});

describe("errorBodyText", () => {
  test("a short body whole; a long one its first 64 KiB, the rest never read", async () => {
    expect(await errorBodyText(serving(['{"error":{"message":"x"}}'], 400).response)).toBe('{"error":{"message":"x"}}');
    const { served, response } = serving(
      Array.from({ length: 100 }, () => "d".repeat(10_000)),
      500,
    );
    expect(await errorBodyText(response)).toBe("d".repeat(MAX_ERROR_BODY_BYTES));
    expect(served.reads).toBeLessThan(10);
    expect(served.cancelled).toBe(true);
  });

  test("a body that fails while read gives no text", async () => {
    const response = new Response(
      new ReadableStream({
        pull: (c) => c.error(new Error("reset")),
      }),
      { status: 502 },
    );
    expect(await errorBodyText(response)).toBe("");
  });
});
