import { describe, expect, test } from "bun:test";
import { eachEvent } from "../../src/model/bounded-lines.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const texts = (chunk: Uint8Array) => [...eachEvent(chunk)].map((p) => new TextDecoder().decode(p));

describe("eachEvent (the body handed to the SDKs one event at a time)", () => {
  test("a read holding several events is cut after each blank line, LF or CRLF, the rest kept whole", () => {
    expect(texts(bytes('data: {"a":1}\n\ndata: {"b":2}\r\n\r\ndata: [DONE]\n\ndata: {"c"'))).toEqual([
      'data: {"a":1}\n\n',
      'data: {"b":2}\r\n\r\n',
      "data: [DONE]\n\n",
      'data: {"c"',
    ]);
  });

  test("a chunk with no event end is handed on as it is, not copied", () => {
    const chunk = bytes("event: message\ndata: {}\n");
    const pieces = [...eachEvent(chunk)];
    expect(pieces).toHaveLength(1);
    expect(pieces[0]).toBe(chunk);
  });

  test("the pieces are views of the read, together exactly its bytes", () => {
    const chunk = bytes("data: x\n\n\n\ndata: y\n\n");
    const pieces = [...eachEvent(chunk)];
    expect(pieces.every((p) => p.buffer === chunk.buffer)).toBe(true);
    expect(Buffer.concat(pieces).equals(Buffer.from(chunk))).toBe(true);
    expect(pieces.length).toBe(3);
  });
});
