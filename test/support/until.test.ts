// The wait helper every test uses: hands back what it found, or names what it waited for.
import { expect, test } from "bun:test";
import { until } from "./until.ts";

test("until resolves with the first value the condition finds", async () => {
  let polls = 0;
  expect(await until(() => (++polls >= 3 ? `found on poll ${polls}` : undefined), { what: "the third poll", intervalMs: 1 })).toBe("found on poll 3");
  expect(await until(async () => true, { what: "an async condition" })).toBe(true);
});

test("until throws, naming what it waited for and for how long, when the deadline passes", async () => {
  await expect(until(() => false, { what: "a condition that never holds", timeoutMs: 50, intervalMs: 5 })).rejects.toThrow(
    "timed out after 50 ms waiting for a condition that never holds",
  );
});

test("a condition that throws fails the wait at once", async () => {
  await expect(
    until(
      () => {
        throw new Error("broken probe");
      },
      { what: "anything" },
    ),
  ).rejects.toThrow("broken probe");
});
