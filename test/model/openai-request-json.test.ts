// The Chat Completions body serialized from cached fragments must be the very
// bytes JSON.stringify makes of the request object, for any request, also when
// the same messages, tools and prompt come back in later requests.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { chatRequestJson, toChatRequest } from "../../src/model/openai/request.ts";
import type { Message, ModelRequest, ToolSchema } from "../../src/model/types.ts";

const text = fc.string({ unit: "binary", maxLength: 40 });
const call = fc.record({ id: text, name: text, arguments: text });
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant("system" as const), content: text }),
  fc.record({ role: fc.constant("user" as const), content: text, injected: fc.option(fc.boolean(), { nil: undefined }) }),
  fc.record({ role: fc.constant("tool" as const), content: text, toolCallId: text, name: text }),
  fc.record(
    { role: fc.constant("assistant" as const), content: text, toolCalls: fc.array(call, { maxLength: 3 }), reasoning: text },
    { requiredKeys: ["role", "content"] },
  ),
);
const tool: fc.Arbitrary<ToolSchema> = fc.record({
  name: text,
  description: text,
  parameters: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 })) as fc.Arbitrary<Record<string, unknown>>,
});
const request: fc.Arbitrary<ModelRequest> = fc.record(
  {
    model: text,
    system: text,
    messages: fc.array(message, { maxLength: 6 }),
    tools: fc.array(tool, { maxLength: 4 }),
    thinking: fc.boolean(),
  },
  { requiredKeys: ["model", "messages"] },
);
const extra = fc.constantFrom({}, { stream: true, stream_options: { include_usage: true } }, { stream: false });

const expected = (r: ModelRequest, e: Record<string, unknown>) => JSON.stringify({ ...toChatRequest(r), ...e });

test("chatRequestJson is JSON.stringify of the request object, byte for byte", () => {
  fc.assert(
    fc.property(request, extra, (r, e) => {
      expect(chatRequestJson(r, e)).toBe(expected(r, e));
    }),
    { numRuns: 500 },
  );
});

test("a cached fragment follows a message changed after it was sent, and reused parts stay exact", () => {
  fc.assert(
    fc.property(request, text, (r, replacement) => {
      const e = { stream: true };
      expect(chatRequestJson(r, e)).toBe(expected(r, e));
      // The same objects again (the history grows, prompt and tools stay): still exact.
      const grown: ModelRequest = { ...r, messages: [...r.messages, { role: "user", content: replacement }] };
      expect(chatRequestJson(grown, e)).toBe(expected(grown, e));
      // A message edited in place is serialized anew.
      for (const m of r.messages) {
        m.content = replacement;
        if (m.role === "assistant") m.toolCalls = [{ id: "x", name: replacement, arguments: "{}" }];
      }
      expect(chatRequestJson(r, e)).toBe(expected(r, e));
    }),
    { numRuns: 300 },
  );
});

type Edit =
  | { kind: "push"; message: Message }
  | { kind: "pop" }
  | { kind: "replace"; at: number; message: Message }
  | { kind: "edit"; at: number; content: string }
  | { kind: "calls"; at: number }
  | { kind: "splice"; at: number; count: number };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("push" as const), message }), weight: 4 },
  fc.record({ kind: fc.constant("pop" as const) }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(20), message }),
  fc.record({ kind: fc.constant("edit" as const), at: fc.nat(20), content: text }),
  fc.record({ kind: fc.constant("calls" as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant("splice" as const), at: fc.nat(20), count: fc.nat(3) }),
);

test("one history array sent again and again, grown, shrunk and edited in place between requests, stays exact", () => {
  fc.assert(
    fc.property(request, fc.array(edit, { maxLength: 25 }), (r, edits) => {
      const e = { stream: true, stream_options: { include_usage: true } };
      const history = r.messages; // the same array object in every request, as a session's history
      expect(chatRequestJson(r, e)).toBe(expected(r, e));
      for (const ed of edits) {
        const at = history.length > 0 ? ("at" in ed ? ed.at % history.length : 0) : -1;
        if (ed.kind === "push") history.push(ed.message);
        else if (ed.kind === "pop") history.pop();
        else if (at < 0) continue;
        else if (ed.kind === "replace") history[at] = ed.message;
        else if (ed.kind === "edit") history[at]!.content = ed.content;
        else if (ed.kind === "calls") {
          const m = history[at]!;
          if (m.role === "assistant") m.toolCalls = [{ id: `c${at}`, name: "n", arguments: "{}" }];
        } else if (ed.kind === "splice") history.splice(at, ed.count);
        expect(chatRequestJson(r, e)).toBe(expected(r, e));
      }
    }),
    { numRuns: 400 },
  );
});
