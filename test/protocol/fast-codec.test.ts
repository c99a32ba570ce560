// The fast client codec (src/protocol/fast) against the protobuf-es generated
// code: every message it handles round-trips both ways, unknown fields are
// skipped, and --json renders its messages byte for byte as it renders
// protobuf-es's.
import { describe, expect, test } from "bun:test";
import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import * as pb from "../../src/protocol/gen/crabtalk_pb.ts";
import { activeSessionIds, decode, encode, FAST_MESSAGES, type FieldDesc, type MessageDesc, type Msg } from "../../src/protocol/fast/codec.ts";
import { Writer } from "../../src/protocol/fast/wire.ts";
import { toPlain } from "../../src/cli/plain-json.ts";

function schemaOf(d: MessageDesc): DescMessage {
  const name = d.typeName.split(".").pop()!;
  const schema = (pb as unknown as Record<string, DescMessage>)[`${name}Schema`];
  if (!schema) throw new Error(`no generated schema for ${d.typeName}`);
  return schema;
}

const SCALARS = {
  string: fc.string({ unit: "binary", maxLength: 20 }),
  uint32: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
  uint64: fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })),
  bool: fc.boolean(),
  double: fc.double(),
};

/** Init values for `d` (protobuf-es init shape), nested up to `depth`. */
function arb(d: MessageDesc, depth = 3): fc.Arbitrary<Record<string, unknown>> {
  const value = (f: FieldDesc): fc.Arbitrary<unknown> =>
    f.kind === "message" ? (depth > 0 ? arb(f.message!(), depth - 1) : fc.constant({})) : SCALARS[f.kind];
  if (d.oneof) {
    const cases = d.fields.map((f) => value(f).map((v) => ({ [d.oneof!]: { case: f.name, value: v } })));
    return fc.oneof(fc.constant({}), ...cases);
  }
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of d.fields) {
    record[f.name] = f.repeated ? fc.array(value(f), { maxLength: 3 }) : value(f);
  }
  return fc.record(record, { requiredKeys: d.fields.filter((f) => !f.optional).map((f) => f.name) });
}

/** Fields no message here knows, of every wire type (and a nested group). */
const unknownFields = fc.array(
  fc.record({
    no: fc.integer({ min: 1000, max: 536_870_911 }),
    kind: fc.constantFrom("varint", "fixed64", "len", "fixed32", "group"),
    n: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    s: fc.string({ maxLength: 8 }),
  }),
  { maxLength: 4 },
);

function unknownBytes(fields: { no: number; kind: string; n: bigint; s: string }[]): Uint8Array {
  const w = new Writer();
  for (const f of fields) {
    if (f.kind === "varint") w.tag(f.no, 0), w.varint64(f.n);
    else if (f.kind === "fixed64") w.tag(f.no, 1), w.double(Number(f.n));
    else if (f.kind === "len") w.tag(f.no, 2), w.string(f.s);
    else if (f.kind === "fixed32") w.tag(f.no, 5), w.varint(0), w.varint(0), w.varint(0), w.varint(0);
    else w.tag(f.no, 3), w.tag(1, 0), w.varint64(f.n), w.tag(f.no, 4);
  }
  return w.finish();
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

describe("fast codec agrees with protobuf-es", () => {
  for (const d of FAST_MESSAGES) {
    const schema = schemaOf(d);
    const name = d.typeName.split(".").pop();

    test(`${name}: fast encode → protobuf-es decode`, () => {
      fc.assert(
        fc.property(arb(d), (init) => {
          const message = create(schema, init);
          const decoded = fromBinary(schema, encode(d, message as Msg));
          expect(decoded).toEqual(message);
          // Same bytes as protobuf-es writes, so the daemon sees no difference at all.
          expect(encode(d, message as Msg)).toEqual(toBinary(schema, message));
        }),
        { numRuns: 300 },
      );
    });

    test(`${name}: protobuf-es encode → fast decode, unknown fields skipped`, () => {
      fc.assert(
        fc.property(arb(d), unknownFields, unknownFields, (init, before, after) => {
          const message = create(schema, init);
          const bytes = toBinary(schema, message);
          const expected = fromBinary(schema, bytes);
          expect(decode(d, bytes)).toEqual(expected);
          const noisy = concat(concat(unknownBytes(before), bytes), unknownBytes(after));
          const fast = decode(d, noisy);
          expect(fast).toEqual(fromBinary(schema, noisy, { readUnknownFields: false }));
          // Key order too: --json output is built from these objects.
          expect(JSON.stringify(toPlain(fast))).toBe(JSON.stringify(toPlain(expected)));
        }),
        { numRuns: 300 },
      );
    });
  }

  test("server variants the fast path does not read decode as no case", () => {
    const bytes = toBinary(pb.ServerMessageSchema, create(pb.ServerMessageSchema, { msg: { case: "config", value: { config: "{}" } } }));
    const { ServerMessage } = Object.fromEntries(FAST_MESSAGES.map((m) => [m.typeName.split(".").pop(), m]));
    expect(decode(ServerMessage!, bytes)).toEqual({ $typeName: "crabtalk.protocol.ServerMessage", msg: { case: undefined } });
  });

  test("truncated input is an error, not a partial message", () => {
    const chunk = toBinary(pb.StreamChunkSchema, create(pb.StreamChunkSchema, { content: "hello" }));
    const { StreamChunk } = Object.fromEntries(FAST_MESSAGES.map((m) => [m.typeName.split(".").pop(), m]));
    expect(() => decode(StreamChunk!, chunk.subarray(0, chunk.length - 1))).toThrow(/premature end/);
  });
});

describe("active session ids read from a session list", () => {
  const { SessionList, ServerMessage } = Object.fromEntries(FAST_MESSAGES.map((m) => [m.typeName.split(".").pop(), m]));

  test("protobuf-es encode → the active ids decode finds, unknown fields anywhere", () => {
    const withUnknown = (d: MessageDesc) => fc.tuple(arb(d), unknownFields, unknownFields).map(([init, before, after]) => ({ init, before, after }));
    fc.assert(
      fc.property(withUnknown(SessionList!), unknownFields, unknownFields, ({ init, before, after }, outerBefore, outerAfter) => {
        const list = concat(concat(unknownBytes(before), toBinary(pb.SessionListSchema, create(pb.SessionListSchema, init))), unknownBytes(after));
        const w = new Writer();
        w.tag(5, 2);
        w.bytes(list);
        const bytes = concat(concat(unknownBytes(outerBefore), w.finish()), unknownBytes(outerAfter));
        const expected = fromBinary(pb.ServerMessageSchema, bytes);
        if (expected.msg.case !== "sessions") throw new Error("not a session list");
        const active = expected.msg.value.sessions.filter((s) => s.active).map((s) => s.id);
        expect(activeSessionIds(bytes)).toEqual(active);
        // The same as the whole message read by the fast codec.
        const fast = decode(ServerMessage!, bytes).msg as { value: { sessions: { id: bigint; active: boolean }[] } };
        expect(fast.value.sessions.filter((s) => s.active).map((s) => s.id)).toEqual(active);
      }),
      { numRuns: 300 },
    );
  });

  test("any other reply is not a session list", () => {
    fc.assert(
      fc.property(arb(ServerMessage!), (init) => {
        const message = create(pb.ServerMessageSchema, init as never);
        const bytes = toBinary(pb.ServerMessageSchema, message);
        const ids = activeSessionIds(bytes);
        if (message.msg.case === "sessions") expect(ids).toEqual(message.msg.value.sessions.filter((s) => s.active).map((s) => s.id));
        else expect(ids).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  test("a reply after the list replaces it; two lists merge; truncation is an error", () => {
    const list = (sessions: { id: bigint; active: boolean }[]) =>
      toBinary(pb.ServerMessageSchema, create(pb.ServerMessageSchema, { msg: { case: "sessions", value: { sessions } } }));
    const pong = toBinary(pb.ServerMessageSchema, create(pb.ServerMessageSchema, { msg: { case: "pong", value: {} } }));
    const a = list([
      { id: 3n, active: true },
      { id: 4n, active: false },
    ]);
    const b = list([{ id: 2n ** 64n - 1n, active: true }]);
    expect(activeSessionIds(concat(a, pong))).toBeUndefined();
    expect(activeSessionIds(concat(pong, a))).toEqual([3n]);
    expect(activeSessionIds(concat(a, b))).toEqual([3n, 2n ** 64n - 1n]);
    expect(() => activeSessionIds(a.subarray(0, a.length - 1))).toThrow(/premature end/);
  });
});

test("a string that begins with U+FEFF (a byte order mark) keeps it, as protobuf-es keeps it", () => {
  const bytes = toBinary(pb.StreamChunkSchema, create(pb.StreamChunkSchema, { content: "\uFEFFhello" }));
  const fast = FAST_MESSAGES.find((d) => d.typeName.endsWith(".StreamChunk"))!;
  expect(decode(fast, bytes).content).toBe("\uFEFFhello");
});
