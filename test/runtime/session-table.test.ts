// Resolution of a message without a session id (docs/sessions.md#resume) picks the identity's
// latest open session: whatever sequence of opens, explicit uses and kills came
// before, the pick is the open session of that identity used last (the first
// opened among never-used ones), as a scan of every open session finds it.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Session, SessionTable } from "../../src/runtime/sessions.ts";

type Op = { kind: "create"; who: number } | { kind: "use"; pick: number } | { kind: "kill"; pick: number } | { kind: "resolve"; who: number };

const SENDERS = ["ann", "bob", "cy"];
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), who: fc.nat(SENDERS.length - 1) }),
  fc.record({ kind: fc.constant("use" as const), pick: fc.nat(50) }),
  fc.record({ kind: fc.constant("kill" as const), pick: fc.nat(50) }),
  fc.record({ kind: fc.constant("resolve" as const), who: fc.nat(SENDERS.length - 1) }),
);

/** What a scan of every open session finds for that identity. */
function scanned(table: SessionTable, sender: string): Session | undefined {
  let best: Session | undefined;
  for (const s of table.list()) if (s.createdBy === sender && (!best || s.lastUsed > best.lastUsed)) best = s;
  return best;
}

test("the session resolved for an identity is its open session used last, after any opens, uses and kills", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-table-"));
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const table = new SessionTable(dir);
        const registered = () => true;
        for (const o of ops) {
          const open = table.list();
          if (o.kind === "create") await table.create("crab", SENDERS[o.who]!);
          else if (o.kind === "use" && open.length > 0) await table.resolve({ agent: "crab", session: open[o.pick % open.length]!.id }, registered);
          else if (o.kind === "kill" && open.length > 0) table.kill(open[o.pick % open.length]!.id);
          else if (o.kind === "resolve") {
            const sender = SENDERS[o.who]!;
            const expected = scanned(table, sender);
            const got = await table.resolve({ agent: "crab", sender }, registered);
            if (expected) expect(got).toBe(expected);
            else {
              // None open: resumed from its newest file or a new one, never a killed session.
              expect(got.createdBy).toBe(sender);
              expect(open).not.toContain(got);
            }
            expect(table.get(got.id)).toBe(got);
          }
        }
      }),
      { numRuns: 60 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
