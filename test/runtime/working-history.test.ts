// The running tally of the working history agrees with a full count after any
// sequence of what runs do to it (property test): appends, injected context
// added and dropped, compaction replacing it, a reload handing a new array.
import { expect, test } from "bun:test";
import fc from "fast-check";
import type { Message } from "../../src/model/types.ts";
import { dropInjected, historyTokens } from "../../src/runtime/working-history.ts";
import { historyTokenEstimate } from "../../src/session/estimate.ts";

const text = fc.string({ unit: "grapheme", maxLength: 30 });
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant("user" as const), content: text }),
  fc.record({ role: fc.constant("user" as const), content: text, injected: fc.constant(true) }),
  fc.record({ role: fc.constant("assistant" as const), content: text, reasoning: fc.option(text, { nil: undefined }) }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: fc.constant(""),
    toolCalls: fc.array(fc.record({ id: text, name: text, arguments: text }), { maxLength: 2 }),
  }),
  fc.record({ role: fc.constant("tool" as const), content: text, toolCallId: text, name: text }),
);
type Op = { push: Message[] } | { drop: true } | { compact: string } | { reload: true };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ push: fc.array(message, { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ drop: fc.constant(true as const) }) },
  { weight: 1, arbitrary: fc.record({ compact: text }) },
  { weight: 1, arbitrary: fc.record({ reload: fc.constant(true as const) }) },
);

test("historyTokens equals historyTokenEstimate whatever runs did to the history; dropInjected keeps the rest in order", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      let history: Message[] = [];
      for (const o of ops) {
        if ("push" in o) history.push(...o.push);
        else if ("drop" in o) {
          const expected = history.filter((m) => !(m.role === "user" && m.injected));
          dropInjected(history);
          expect(history).toEqual(expected);
        } else if ("compact" in o) history.splice(0, history.length, { role: "user", content: o.compact });
        else if ("reload" in o) history = history.map((m) => ({ ...m }));
        expect(historyTokens(history)).toBe(historyTokenEstimate(history));
      }
    }),
    {
      numRuns: 3000,
      // Found by this property: injected context pushed after a compaction shrank the history must still be dropped.
      examples: [
        [
          [
            {
              push: [
                { role: "user", content: "a" },
                { role: "assistant", content: "b" },
              ],
            },
            { drop: true },
            { compact: "s" },
            { push: [{ role: "user", content: "i", injected: true }] },
            { drop: true },
          ],
        ],
      ],
    },
  );
});
