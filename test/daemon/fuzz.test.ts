// Random bytes at a real daemon: whatever arrives, it answers each well-formed
// frame in order, never crashes, and keeps serving other clients.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { CLIENT, RawConnection, frame, lenField, parseFields } from "../support/raw-proto.ts";
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
beforeAll(async () => {
  daemon = await startDaemon();
});
afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  cleanup(daemon.home);
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
