import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/model/types.ts";
import { historyTokenEstimate, messagesTokenEstimate, messageTokenEstimate } from "../../src/session/estimate.ts";

describe("per-message estimate (docs/agent-loop.md#when-it-runs)", () => {
  test('"hello world" (11 bytes) estimates to 2', () => {
    expect(messageTokenEstimate({ role: "user", content: "hello world" })).toBe(2);
  });

  test("tool-call names and arguments count: a bash call with 30-byte arguments estimates to 8", () => {
    const args = '{"command":"ls -la /tmp/xyz1"}';
    expect(Buffer.byteLength(args)).toBe(30);
    expect(messageTokenEstimate({ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: args }] })).toBe(8);
  });

  test('a list estimates to the sum of its messages ("hello" + "world" → 2)', () => {
    expect(
      messagesTokenEstimate([
        { role: "user", content: "hello" },
        { role: "assistant", content: "world" },
      ]),
    ).toBe(2);
  });

  test("an empty message estimates to 1", () => {
    expect(messageTokenEstimate({ role: "user", content: "" })).toBe(1);
  });

  test("reasoning and tool_call_id count; sizes are UTF-8 bytes", () => {
    expect(messageTokenEstimate({ role: "assistant", content: "abcd", reasoning: "efgh" })).toBe(2);
    expect(messageTokenEstimate({ role: "tool", content: "abcd", toolCallId: "call_1234" })).toBe(3);
    expect(messageTokenEstimate({ role: "user", content: "éééé" })).toBe(2); // 8 bytes
  });
});

describe("compaction trigger estimate (docs/agent-loop.md#when-it-runs)", () => {
  test("sums content, reasoning and arguments over the history, then divides by 4 (floor)", () => {
    const history: Message[] = [
      { role: "user", content: "abc" }, // 3
      { role: "assistant", content: "de", reasoning: "fgh", toolCalls: [{ id: "id-not-counted", name: "bash", arguments: "12345" }] }, // 10
      { role: "tool", content: "xy", toolCallId: "not-counted" }, // 2
    ];
    expect(historyTokenEstimate(history)).toBe(3); // 15 / 4
    expect(historyTokenEstimate([])).toBe(0);
    // Unlike the per-message estimate, there is no minimum and no per-message rounding.
    expect(
      historyTokenEstimate([
        { role: "user", content: "ab" },
        { role: "user", content: "cd" },
      ]),
    ).toBe(1);
    expect(
      messagesTokenEstimate([
        { role: "user", content: "ab" },
        { role: "user", content: "cd" },
      ]),
    ).toBe(2);
  });
});
