// fast-check generators of stored messages and the equality modulo what a
// session file drops (sender, injected, empty optional fields).
import fc from "fast-check";
import type { Message, ToolCall } from "../../src/model/types.ts";
import type { StoredMessage } from "../../src/session/jsonl.ts";

const text = fc.oneof(fc.string({ unit: "binary" }), fc.string(), fc.constant(""), fc.constant('line\nbreak "q" \\ {}'));

const toolCall: fc.Arbitrary<ToolCall> = fc.record({ id: text, name: text, arguments: text });

export const message: fc.Arbitrary<StoredMessage> = fc.oneof(
  fc.record({ role: fc.constant("user" as const), content: text, sender: text, injected: fc.boolean() }, { requiredKeys: ["role", "content"] }),
  fc.record(
    { role: fc.constant("assistant" as const), content: text, reasoning: text, toolCalls: fc.array(toolCall, { maxLength: 3 }) },
    { requiredKeys: ["role", "content"] },
  ),
  fc.record({ role: fc.constant("tool" as const), content: text, toolCallId: text, name: text }, { requiredKeys: ["role", "content", "toolCallId"] }),
);

/** What a message looks like after a write and a load. */
export function asStored(m: StoredMessage): StoredMessage {
  switch (m.role) {
    case "user":
      return { role: "user", content: m.content };
    case "assistant": {
      const out: StoredMessage = { role: "assistant", content: m.content };
      if (m.reasoning) out.reasoning = m.reasoning;
      if (m.toolCalls && m.toolCalls.length > 0) out.toolCalls = m.toolCalls.map((c) => ({ ...c }));
      return out;
    }
    case "tool": {
      const out: StoredMessage = { role: "tool", content: m.content, toolCallId: m.toolCallId };
      if (m.name) out.name = m.name;
      return out;
    }
  }
}

export const isInjected = (m: Message): boolean => m.role === "user" && m.injected === true;
