// The Chat Completions body serialized from cached fragments must be the very
// bytes JSON.stringify makes of the request object, for any request, also when
// the same messages, tools and prompt come back in later requests.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { chatRequestJson, toChatRequest } from "../../src/model/openai-request.ts";
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
