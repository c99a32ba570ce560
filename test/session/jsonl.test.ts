import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { AssistantMessage, Message, ToolMessage, UserMessage } from "../../src/model/types.ts";
import {
  compactMarkerToLine,
  isPersisted,
  LINE_PIECE,
  messageLinePieces,
  messageToLine,
  metaToLine,
  newSessionMeta,
  parseEntryLine,
  parseMetaLine,
  type StoredMessage,
} from "../../src/session/jsonl.ts";
import { asStored, isInjected, message } from "./arbitrary.ts";

const roundTrip = (m: StoredMessage) => {
  const entry = parseEntryLine(messageToLine(m));
  if (entry?.kind !== "message") throw new Error(`not a message line: ${messageToLine(m)}`);
  return entry.message;
};

describe("message JSON round trips (docs/sessions.md#file-format)", () => {
  test("a user message keeps role and content", () => {
    expect(roundTrip({ role: "user", content: "hello" })).toEqual({ role: "user", content: "hello" });
  });

  test("an assistant message with text, reasoning and a tool call keeps all three", () => {
    const m: AssistantMessage = {
      role: "assistant",
      content: "let me look",
      reasoning: "the user wants files",
      toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }],
    };
    expect(roundTrip(m)).toEqual(m);
  });

  test('`{"role":"assistant"}` loads as an assistant message with empty content and no tool calls', () => {
    const entry = parseEntryLine('{"role":"assistant"}');
    expect(entry).toEqual({ kind: "message", message: { role: "assistant", content: "" } });
    if (entry?.kind === "message" && entry.message.role === "assistant") expect(entry.message.toolCalls).toBeUndefined();
  });

  test("a tool-result message keeps role, content and tool call id", () => {
    const m: ToolMessage = { role: "tool", content: '{"exit_code":0}', toolCallId: "c1", name: "bash" };
    expect(roundTrip(m)).toEqual(m);
  });
});

describe("JSON layout (docs/sessions.md#file-format)", () => {
  test("lines match the spec example byte for byte", () => {
    expect(messageToLine({ role: "user", content: "list files" })).toBe('{"role":"user","content":"list files"}');
    expect(messageToLine({ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }] })).toBe(
      '{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}}]}',
    );
    expect(messageToLine({ role: "tool", content: "out", toolCallId: "c1", name: "bash" })).toBe(
      '{"role":"tool","content":"out","name":"bash","tool_call_id":"c1"}',
    );
    expect(compactMarkerToLine("summary")).toBe('{"compact":"summary"}');
    expect(metaToLine({ agent: "crab", created_by: "alice", created_at: "2026-04-02T10:00:00Z", title: "", uptime_secs: 3 })).toBe(
      '{"agent":"crab","created_by":"alice","created_at":"2026-04-02T10:00:00Z","title":"","uptime_secs":3}',
    );
  });

  test("empty keys are omitted, including empty id/name/arguments of a tool call", () => {
    expect(messageToLine({ role: "assistant", content: "", reasoning: "", toolCalls: [] })).toBe('{"role":"assistant"}');
    expect(messageToLine({ role: "assistant", content: "", toolCalls: [{ id: "", name: "", arguments: "" }] })).toBe(
      '{"role":"assistant","tool_calls":[{"type":"function","function":{}}]}',
    );
    expect(messageToLine({ role: "tool", content: "", toolCallId: "" })).toBe('{"role":"tool"}');
  });

  test("sender and injected are never written", () => {
    const m: UserMessage = { role: "user", content: "hi", sender: "tg:123", injected: false };
    expect(messageToLine(m)).toBe('{"role":"user","content":"hi"}');
    expect(roundTrip(m)).toEqual({ role: "user", content: "hi" });
  });

  test("isPersisted drops injected and system messages", () => {
    const all: Message[] = [
      { role: "system", content: "s" },
      { role: "user", content: "ctx", injected: true },
      { role: "user", content: "q", sender: "a" },
      { role: "assistant", content: "a" },
    ];
    expect(all.filter(isPersisted).map((m) => m.content)).toEqual(["q", "a"]);
  });

  test("readers accept absent optional keys, including a tool call without arguments", () => {
    expect(parseEntryLine('{"role":"user"}')).toEqual({ kind: "message", message: { role: "user", content: "" } });
    expect(parseEntryLine('{"role":"tool","content":"x"}')).toEqual({
      kind: "message",
      message: { role: "tool", content: "x", toolCallId: "" },
    });
    expect(parseEntryLine('{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"bash"}}]}')).toEqual({
      kind: "message",
      message: { role: "assistant", content: "", toolCalls: [{ id: "c", name: "bash", arguments: "" }] },
    });
    expect(parseEntryLine('{"role":"assistant","tool_calls":[{"id":"c"}]}')).toEqual({
      kind: "message",
      message: { role: "assistant", content: "", toolCalls: [{ id: "c", name: "", arguments: "" }] },
    });
  });

  test("garbage, blank, unknown roles and wrongly typed keys are not entries", () => {
    for (const line of [
      "",
      "   ",
      "{",
      '{"role":"assistant","content":"to',
      "[]",
      "42",
      '"x"',
      "{}",
      '{"role":"system","content":"s"}',
      '{"role":"wizard"}',
      '{"role":"user","content":5}',
      '{"role":"assistant","tool_calls":{}}',
    ]) {
      expect(parseEntryLine(line)).toBeUndefined();
    }
  });

  test("meta: defaults for title and uptime, required agent/created_by/created_at", () => {
    expect(parseMetaLine('{"agent":"crab","created_by":"user","created_at":"t"}')).toEqual({
      agent: "crab",
      created_by: "user",
      created_at: "t",
      title: "",
      uptime_secs: 0,
    });
    expect(parseMetaLine('{"agent":"crab","created_by":"user"}')).toBeUndefined();
    expect(parseMetaLine('{"role":"user","content":"hi"}')).toBeUndefined();
    expect(parseMetaLine('{"agent":"crab","created_by":"user","created_at":"t","uptime_secs":-1}')).toBeUndefined();
    expect(parseMetaLine("not json")).toBeUndefined();
  });

  test("newSessionMeta stamps RFC 3339 UTC whole seconds", () => {
    const meta = newSessionMeta("crab", "alice", new Date("2026-04-02T10:00:00.456Z"));
    expect(meta).toEqual({ agent: "crab", created_by: "alice", created_at: "2026-04-02T10:00:00Z", title: "", uptime_secs: 0 });
    expect(parseMetaLine(metaToLine(meta))).toEqual(meta);
  });

  test("property: every stored message survives a line round trip (modulo sender/injected/empty keys)", () => {
    fc.assert(
      fc.property(message, (m) => {
        if (isInjected(m) || !isPersisted(m)) return;
        const line = messageToLine(m);
        expect(line.includes("\n")).toBe(false);
        expect(roundTrip(m)).toEqual(asStored(m));
      }),
      { numRuns: 500 },
    );
  });

  test("property: a message line written in pieces is the same line", () => {
    fc.assert(
      fc.property(message, (m) => {
        if (isInjected(m) || !isPersisted(m)) return;
        expect([...messageLinePieces(m)].join("")).toBe(messageToLine(m));
      }),
      { numRuns: 300 },
    );
  });

  test("a content longer than a piece is escaped a piece at a time, a surrogate pair cut by the boundary kept whole", () => {
    // The pair straddles the first piece boundary; quotes, newlines and control characters around it.
    const content = `${"a".repeat(LINE_PIECE - 1)}😀"\n\u0001${"é".repeat(LINE_PIECE)}\\end`;
    const m: AssistantMessage = { role: "assistant", content, reasoning: `${"r".repeat(2 * LINE_PIECE)}😀`, partial: "error" };
    const pieces = [...messageLinePieces(m)];
    expect(pieces.join("")).toBe(messageToLine(m));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(LINE_PIECE * 6);
    expect(roundTrip(m)).toEqual(m);
  });
});
