// Turns start one per turn of the event loop, in order: what became ready in
// between (a chunk arriving on a socket) runs between two starts.
import { expect, test } from "bun:test";
import { TurnGate } from "../../src/daemon/turn-gate.ts";

test("the first start passes at once; the rest one per loop turn, in order, with the loop's other work in between", async () => {
  const gate = new TurnGate();
  const order: string[] = [];
  const starts = Array.from({ length: 5 }, (_, i) => gate.enter().then(() => order.push(`start${i}`)));
  expect(gate.queued).toBe(4);
  await Promise.resolve();
  expect(order).toEqual(["start0"]);
  // Work that becomes ready meanwhile (as a socket callback would) runs before the next start.
  setImmediate(() => order.push("io"));
  await Promise.all(starts);
  expect(order.filter((o) => o.startsWith("start"))).toEqual(["start0", "start1", "start2", "start3", "start4"]);
  expect(order.indexOf("io")).toBeGreaterThan(0);
  expect(order.indexOf("io")).toBeLessThan(order.length - 1);
  expect(gate.queued).toBe(0);
});

test("a start after a quiet loop turn passes at once again", async () => {
  const gate = new TurnGate();
  await gate.enter();
  await new Promise((resolve) => setTimeout(resolve, 5));
  let passed = false;
  void gate.enter().then(() => (passed = true));
  await Promise.resolve();
  expect(passed).toBe(true);
});
