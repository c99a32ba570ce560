// Random bytes at a real daemon: whatever arrives, it answers each well-formed
// frame in order, never crashes, and keeps serving other clients.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { CLIENT, RawConnection, errorOf, frame, lenField, parseFields, serverVariant, SERVER } from "../support/raw-proto.ts";
import { decodeClientMessage } from "../../src/protocol/codec.ts";

/** Payloads that would open a long-lived operation (a subscription, a run) are not "answered at once". */
function answersAtOnce(p: Uint8Array): boolean {
  try {
    const c = decodeClientMessage(p).msg.case;
    return !["subscribeEvents", "stream", "send", "installPackage", "uninstallPackage", "createAgent", "setConfig"].includes(c ?? "");
  } catch {
    return true; // undecodable: answered with 400 at once
  }
}

let daemon: TestDaemon;
/** The same daemon with small [system.limits], so partial frames and idle connections meet them fast. */
let limited: TestDaemon;
const BUDGET = 256 * 1024;
beforeAll(async () => {
  daemon = await startDaemon();
  limited = await startDaemon({
    config: `[system.limits]\nframe_timeout = 1\nidle_timeout = 1\nframe_buffer_bytes = ${BUDGET}\nmax_connections = 64\n`,
  });
});
afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  expect(await limited.stop()).toBe(0);
  cleanup(daemon.home);
  cleanup(limited.home);
});

async function stillAnswers(): Promise<void> {
  const c = await RawConnection.open({ path: daemon.socket });
  c.write(frame(lenField(CLIENT.ping, [])));
  expect(Array.from((await c.readFrame())!)).toEqual([0x12, 0x00]);
  c.destroy();
}

test("well-formed frames with random payloads each get exactly one reply, in order", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }).filter(answersAtOnce), { minLength: 1, maxLength: 12 }), async (payloads) => {
      const c = await RawConnection.open({ path: daemon.socket });
      // A Ping we can recognise, the random payloads, then a closing Ping.
      const ping = frame(lenField(CLIENT.ping, []));
      c.write([...ping, ...payloads.flatMap((p) => Array.from(frame(p))), ...ping]);
      const first = await c.readFrame();
      expect(Array.from(first!)).toEqual([0x12, 0x00]);
      let last: Uint8Array | null = null;
      for (let i = 0; i <= payloads.length; i++) {
        last = await c.readFrame(10_000);
        expect(last).not.toBeNull();
        expect(parseFields(last!)).toHaveLength(1); // one ServerMessage variant per reply
      }
      expect(Array.from(last!)).toEqual([0x12, 0x00]);
      c.destroy();
    }),
    { numRuns: 40 },
  );
  await stillAnswers();
});

test("arbitrary byte streams, cut anywhere, never take the daemon down", async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 512 }), async (bytes) => {
      const c = await RawConnection.open({ port: daemon.port });
      c.write(bytes);
      await Bun.sleep(2);
      c.destroy();
    }),
    { numRuns: 150 },
  );
  await stillAnswers();
  expect(daemon.proc.exitCode).toBeNull();
});

/** What one client of the limits fuzz does: some whole frames, then a frame it never finishes, or nothing at all. */
const clientPlan = fc.record({
  whole: fc.array(fc.uint8Array({ maxLength: 64 }).filter(answersAtOnce), { maxLength: 4 }),
  // The unfinished frame: its declared length and how much of the frame (header included) is sent; null: stay idle.
  partial: fc.option(
    fc.integer({ min: 1, max: 300_000 }).chain((length) => fc.record({ length: fc.constant(length), sent: fc.integer({ min: 1, max: length + 3 }) })),
    { nil: null },
  ),
});

test("partial frames and idle connections, many at once: each ends with 408/503 or an idle close, memory and service come back", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(clientPlan, { minLength: 1, maxLength: 6 }), async (plans) => {
      const outcomes = await Promise.all(
        plans.map(async (plan) => {
          const c = await RawConnection.open(Math.random() < 0.5 ? { path: limited.socket } : { port: limited.port });
          const bytes = plan.whole.flatMap((p) => Array.from(frame(p)));
          if (plan.partial) {
            const whole = new Uint8Array(4 + plan.partial.length);
            new DataView(whole.buffer).setUint32(0, plan.partial.length, false);
            bytes.push(...whole.subarray(0, plan.partial.sent));
          }
          if (bytes.length > 0) c.write(bytes);
          const replies: Uint8Array[] = [];
          for (let r = await c.readFrame(30_000); r !== null; r = await c.readFrame(30_000)) replies.push(r);
          return { plan, replies };
        }),
      );
      for (const { plan, replies } of outcomes) {
        for (const r of replies) expect(parseFields(r)).toHaveLength(1);
        if (plan.partial === null) {
          // Whole frames answered, then closed for being idle without a word.
          expect(replies).toHaveLength(plan.whole.length);
        } else {
          const last = errorOf(replies[replies.length - 1]);
          expect([408, 503]).toContain(last.code);
          expect(replies.length).toBeLessThanOrEqual(plan.whole.length + 1);
        }
      }
    }),
    { numRuns: 12 },
  );
  // Every partial frame's bytes went back: one frame just under the cap gets through.
  const c = await RawConnection.open({ path: limited.socket });
  const payload = lenField(7, lenField(1, new Uint8Array(BUDGET - 64).fill(97)));
  c.write(frame(payload));
  expect(serverVariant((await c.readFrame(10_000))!).tag).not.toBe(SERVER.error);
  c.write(frame(lenField(CLIENT.ping, [])));
  expect(Array.from((await c.readFrame())!)).toEqual([0x12, 0x00]);
  c.destroy();
  expect(limited.proc.exitCode).toBeNull();
}, 120_000);
