// The record an unloaded session leaves behind: everything needed to open it
// again under its id, and the identity's latest one without a scan.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { ParkedSessions, type ParkedSession } from "../../src/runtime/parked-sessions.ts";

const DIR = "/home/u/.crabtalk/sessions";

test("a parked session comes back whole: identity, file (inside sessions/ or not), cwd, last use", () => {
  const parked = new ParkedSessions(DIR);
  const odd: ParkedSession = { id: 7n, agent: "crab", createdBy: "a\u0000b:c", filePath: "/elsewhere/x.jsonl", cwd: "/w\u0000d", lastUsed: 3 };
  const plain: ParkedSession = { id: 8n, agent: "crab", createdBy: "user", filePath: `${DIR}/crab_user_2_a-title.jsonl`, lastUsed: 4 };
  parked.park(odd);
  parked.park(plain);
  expect(parked.boundTo(`${DIR}/crab_user_2_a-title.jsonl`)).toEqual([8n]);
  expect(parked.take(7n)).toEqual(odd);
  expect(parked.take(8n)).toEqual({ ...plain, cwd: undefined });
  expect(parked.take(8n)).toBeUndefined();
  expect(parked.size).toBe(0);
});

test("the identity's latest parked session is always the one a scan would find", () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant("park" as const), owner: fc.integer({ min: 0, max: 2 }), lastUsed: fc.integer({ min: 0, max: 50 }) }),
    fc.record({ kind: fc.constant("take" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("latest" as const), owner: fc.integer({ min: 0, max: 2 }) }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const parked = new ParkedSessions(DIR);
      const model = new Map<bigint, { owner: number; lastUsed: number }>();
      let next = 1n;
      for (const o of ops) {
        if (o.kind === "park") {
          const id = next++;
          model.set(id, { owner: o.owner, lastUsed: o.lastUsed });
          parked.park({ id, agent: "crab", createdBy: `u${o.owner}`, filePath: `${DIR}/crab_u${o.owner}_${id}.jsonl`, lastUsed: o.lastUsed });
        } else if (o.kind === "take") {
          const ids = [...model.keys()];
          if (ids.length === 0) continue;
          const id = ids[o.pick % ids.length];
          model.delete(id);
          expect(parked.take(id)?.id).toBe(id);
        } else {
          let best: { id: bigint; lastUsed: number } | undefined;
          for (const [id, m] of model) if (m.owner === o.owner && (!best || m.lastUsed > best.lastUsed)) best = { id, lastUsed: m.lastUsed };
          expect(parked.latest("crab", `u${o.owner}`)?.lastUsed).toBe(best?.lastUsed);
        }
      }
    }),
  );
});
