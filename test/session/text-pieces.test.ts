// A long answer kept as its streamed pieces (src/base/text-pieces.ts): the
// session line written from the pieces is the line of the whole text, and
// the title's excerpt is the same, whatever the pieces.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { AssistantMessage, Message } from "../../src/model/types.ts";
import { keepPieces, PIECES_MIN_LENGTH, piecesOf, prefixOf } from "../../src/base/text-pieces.ts";
import { LINE_PIECE, messageLinePieces, messageToLine } from "../../src/session/jsonl.ts";
import { TITLE_EXCERPT_CHARS, titleRequestMessages, titleSource } from "../../src/session/title.ts";

/** Streamed chunks: any UTF-16 units, so a surrogate pair may be cut between two chunks. */
const chunks = fc
  .array(fc.string({ unit: "binary", maxLength: 40 }), { maxLength: 12 })
  .chain((small) =>
    fc
      .tuple(fc.constant(small), fc.constantFrom("x", "é", '"', "😀", "\n"))
      .map(([pieces, fill]) => [...pieces, fill.repeat(PIECES_MIN_LENGTH / fill.length + 1), ...pieces]),
  );

function answer(pieces: string[], reasoning?: string[]): AssistantMessage {
  const m: AssistantMessage = { role: "assistant", content: pieces.join(""), partial: "error" };
  keepPieces(m, "content", m.content, pieces);
  if (reasoning) {
    m.reasoning = reasoning.join("");
    keepPieces(m, "reasoning", m.reasoning, reasoning);
  }
  return m;
}

describe("text pieces", () => {
  test("property: a message written from its pieces is the line of its whole text", () => {
    fc.assert(
      fc.property(chunks, chunks, (text, reasoning) => {
        const m = answer(text, reasoning);
        expect(piecesOf(m, "content", m.content)).toBe(text);
        const pieces = [...messageLinePieces(m)];
        expect(pieces.join("")).toBe(messageToLine(m));
        expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(LINE_PIECE * 6);
      }),
      { numRuns: 200 },
    );
  });

  test("a surrogate pair cut between two pieces is written as the pair, as in the whole text", () => {
    const pair = "😀";
    const m = answer([`${"a".repeat(PIECES_MIN_LENGTH)}${pair[0]}`, `${pair[1]}b`]);
    expect([...messageLinePieces(m)].join("")).toBe(messageToLine(m));
    expect(messageToLine(m)).toContain(`a${pair}b`);
  });

  test("pieces are used only while the field holds the text they were kept for", () => {
    const m = answer(["a".repeat(PIECES_MIN_LENGTH), "b"]);
    m.content = "replaced";
    expect(piecesOf(m, "content", m.content)).toEqual(["replaced"]);
    expect(messageToLine(m)).toBe([...messageLinePieces(m)].join(""));
  });

  test("a short text keeps no pieces", () => {
    const m: Message = { role: "assistant", content: "ab" };
    keepPieces(m, "content", m.content, ["a", "b"]);
    expect(piecesOf(m, "content", m.content)).toEqual(["ab"]);
  });

  test("prefixOf is the text's prefix, however it was cut", () => {
    fc.assert(
      fc.property(chunks, fc.nat({ max: PIECES_MIN_LENGTH + 200 }), (text, n) => {
        const m = answer(text);
        expect(prefixOf(m, "content", m.content, n)).toBe(m.content.slice(0, n));
      }),
      { numRuns: 200 },
    );
  });

  test("the title's excerpt of a long answer kept in pieces is the excerpt of its text", () => {
    const m = answer(["😀".repeat(150), "é".repeat(PIECES_MIN_LENGTH), "tail"]);
    const history: Message[] = [{ role: "user", content: "q" }, m];
    const source = titleSource(history)!;
    expect(source.assistant.length).toBe(2 * TITLE_EXCERPT_CHARS + 1);
    expect(titleRequestMessages(source.user, source.assistant)).toEqual(titleRequestMessages("q", m.content));
  });
});
