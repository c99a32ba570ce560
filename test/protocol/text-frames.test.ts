// The hand-encoded text frames (src/protocol/text-frames.ts) are byte for
// byte what protobuf-es writes for the same ServerMessage, for any text.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decodeServerMessage, encodeServerMessage, type Reply } from "../../src/protocol/codec.ts";
import { encodeTextFrame, textOf } from "../../src/protocol/text-frames.ts";

const reply = (kind: "chunk" | "thinking", content: string): Reply => ({ case: "stream", value: { event: { case: kind, value: { content } } } });

describe("encodeTextFrame", () => {
  test("property: the same bytes as protobuf-es for chunk and thinking, any text (lone surrogates included)", () => {
    fc.assert(
      fc.property(fc.constantFrom("chunk" as const, "thinking" as const), fc.string({ unit: "binary", maxLength: 300 }), (kind, content) => {
        const text = textOf(reply(kind, content));
        expect(text).toBeDefined();
        expect(Buffer.from(encodeTextFrame(text!.field, text!.content)).equals(Buffer.from(encodeServerMessage(reply(kind, content))))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  test("lengths across the varint boundaries, and a long text, decode back", () => {
    for (const n of [0, 1, 122, 123, 124, 127, 128, 16380, 16383, 16384, 70_000, 2_100_000]) {
      const content = "é".repeat(n >> 1) + "x".repeat(n & 1);
      const bytes = encodeTextFrame(2, content);
      expect(Buffer.from(bytes).equals(Buffer.from(encodeServerMessage(reply("chunk", content))))).toBe(true);
      const back = decodeServerMessage(bytes).msg;
      expect(back.case === "stream" && back.value.event.case === "chunk" && back.value.event.value.content).toBe(content);
    }
  });

  test("only chunk and thinking frames are text frames", () => {
    expect(textOf({ case: "stream", value: { event: { case: "end", value: { agent: "a", error: "" } } } })).toBeUndefined();
    expect(textOf({ case: "pong", value: {} })).toBeUndefined();
  });
});
