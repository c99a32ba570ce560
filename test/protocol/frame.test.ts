// Frame codec (docs/protocol.md#frames): arbitrary chunking, limits, and envelopes.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { FrameDecoder, MAX_FRAME_BYTES, encodeFrame, FrameTooLargeError } from "../../src/protocol/frame.ts";
import { decodeClientMessage, encodeClientMessage, encodeServerMessage, decodeServerMessage } from "../../src/protocol/codec.ts";

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    parts.push(bytes.subarray(prev, p));
    prev = p;
  }
  return parts;
}

test("any sequence of frames, cut into arbitrary chunks, decodes to the same payloads in order", () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 40 }), (payloads, cuts) => {
      const stream = new Uint8Array(payloads.reduce((n, p) => n + 4 + p.length, 0));
      let off = 0;
      for (const p of payloads) {
        stream.set(encodeFrame(p), off);
        off += 4 + p.length;
      }
      const decoder = new FrameDecoder();
      const out: number[][] = [];
      for (const chunk of split(stream, cuts)) {
        for (const e of decoder.push(chunk)) {
          expect(e.kind).toBe("frame");
          if (e.kind === "frame") out.push(Array.from(e.payload));
        }
      }
      expect(out).toEqual(payloads.map((p) => Array.from(p)));
      expect(decoder.pendingBytes).toBe(0);
    }),
  );
});

test("the header is big-endian and counts payload bytes only", () => {
  expect(Array.from(encodeFrame(new Uint8Array([7, 8, 9])))).toEqual([0, 0, 0, 3, 7, 8, 9]);
  expect(Array.from(encodeFrame(new Uint8Array(0)))).toEqual([0, 0, 0, 0]);
});

test("a length of exactly 16 MiB is allowed, one more is too large and reported once", () => {
  const ok = new FrameDecoder();
  const header = new Uint8Array(4);
  new DataView(header.buffer).setUint32(0, MAX_FRAME_BYTES, false);
  expect(ok.push(header)).toEqual([]); // waits for the body
  const bad = new FrameDecoder();
  new DataView(header.buffer).setUint32(0, MAX_FRAME_BYTES + 1, false);
  expect(bad.push(header)).toEqual([{ kind: "too_large", length: MAX_FRAME_BYTES + 1 }]);
  expect(bad.push(new Uint8Array(1000))).toEqual([]); // the body is never buffered
  expect(bad.pendingBytes).toBe(0);
  expect(() => encodeFrame(new Uint8Array(MAX_FRAME_BYTES + 1))).toThrow(FrameTooLargeError);
});

test("envelopes round-trip through the codec", () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.option(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { nil: undefined }), (agent, content, session) => {
      const bytes = encodeClientMessage({ case: "send", value: { agent, content, session } });
      const back = decodeClientMessage(bytes).msg;
      expect(back.case).toBe("send");
      if (back.case === "send") {
        expect(back.value.agent).toBe(agent);
        expect(back.value.content).toBe(content);
        expect(back.value.session).toBe(session);
      }
    }),
  );
  const reply = decodeServerMessage(encodeServerMessage({ case: "error", value: { code: 404, message: "session 7 not found" } }));
  expect(reply.msg).toMatchObject({ case: "error", value: { code: 404, message: "session 7 not found" } });
});

test("bytes that are not a ClientMessage throw", () => {
  expect(() => decodeClientMessage(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toThrow();
});
