// The generated module's descriptors are built on first use
// (src/protocol/embedded-file.ts), and a Ping and its Pong are coded by hand
// (src/protocol/codec.ts) so that a daemon only pinged builds none. These
// tests hold that the descriptors are protobuf-es's own, one object each, and
// the hand-coded frames are protobuf-es's bytes and messages.
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { create, createFileRegistry, fromBinary, toBinary, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import * as generated from "../../src/protocol/gen/crabtalk_pb.ts";
import { ClientMessageSchema, PingSchema, PongSchema, SendMsgSchema, ServerMessageSchema, file_crabtalk } from "../../src/protocol/gen/crabtalk_pb.ts";
import { decodeClientMessage, decodeServerMessage, encodeClientMessage, encodeServerMessage } from "../../src/protocol/codec.ts";
import { ENUM_KEYS, FILE_KEYS, MESSAGE_KEYS } from "../../src/protocol/embedded-file.ts";

const REPO = resolve(import.meta.dir, "../..");

/** A registry protobuf-es builds from the same FileDescriptorProto, eagerly. */
function eagerFile() {
  return createFileRegistry(file_crabtalk.proto, () => undefined).getFile(file_crabtalk.proto.name)!;
}

function allMessages(list: readonly DescMessage[]): DescMessage[] {
  return list.flatMap((m) => [m, ...allMessages(m.nestedMessages)]);
}

/** Every property of a field, descriptors it points to by name, functions by their result. */
function fieldShape(f: DescField): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(f)) {
    if (key === "proto") continue;
    if (typeof value === "function") out[key] = key === "toString" ? String(f) : (value as () => unknown)();
    else if (value !== null && typeof value === "object") out[key] = "typeName" in value ? value.typeName : `${value.kind}:${value.name}`;
    else out[key] = value;
  }
  return out;
}

test("the stand-ins answer every property protobuf-es gives a file, a message and an enum", () => {
  const eager = eagerFile();
  expect([...FILE_KEYS].sort()).toEqual(Object.keys(eager).sort());
  for (const m of allMessages(eager.messages)) expect([...MESSAGE_KEYS].sort()).toEqual(Object.keys(m).sort());
  for (const e of eager.enums) expect([...ENUM_KEYS].sort()).toEqual(Object.keys(e).sort());
});

test("hydrated descriptors are protobuf-es's: same messages, fields, oneofs and enums as an eager registry", () => {
  const eager = eagerFile();
  const lazy = allMessages(file_crabtalk.messages);
  const reference = allMessages(eager.messages);
  expect(lazy.map((m) => m.typeName)).toEqual(reference.map((m) => m.typeName));
  for (const [i, m] of lazy.entries()) {
    const r = reference[i]!;
    expect(m.fields.map(fieldShape)).toEqual(r.fields.map(fieldShape));
    expect(m.members.map((x) => `${x.kind}:${x.name}`)).toEqual(r.members.map((x) => `${x.kind}:${x.name}`));
    expect(m.oneofs.map((o) => [o.name, o.localName, o.fields.map((f) => f.name)])).toEqual(
      r.oneofs.map((o) => [o.name, o.localName, o.fields.map((f) => f.name)]),
    );
    expect(String(m)).toBe(String(r));
    expect(m.parent?.typeName).toBe(r.parent?.typeName);
  }
  expect(file_crabtalk.enums.map((e) => [e.typeName, e.open, e.sharedPrefix, e.values.map((v) => [v.name, v.localName, v.number])])).toEqual(
    eager.enums.map((e) => [e.typeName, e.open, e.sharedPrefix, e.values.map((v) => [v.name, v.localName, v.number])]),
  );
});

test("one object per descriptor: the exported schemas are the ones the graph points to", () => {
  const exported = new Set<object>(Object.values(generated).filter((v) => typeof v === "object" && v !== null && "kind" in v));
  expect(ClientMessageSchema.field.send!.message).toBe(SendMsgSchema);
  expect(file_crabtalk.messages[0]).toBe(ClientMessageSchema);
  for (const m of allMessages(file_crabtalk.messages)) {
    expect(exported.has(m)).toBe(true);
    expect(m.file).toBe(file_crabtalk);
    for (const f of m.fields) {
      expect(f.parent).toBe(m);
      if (f.message && !f.message.proto.options?.mapEntry) expect(exported.has(f.message)).toBe(true);
      if (f.enum) expect(exported.has(f.enum)).toBe(true);
    }
    for (const o of m.oneofs) expect(o.parent).toBe(m);
  }
  for (const e of file_crabtalk.enums) {
    expect(exported.has(e)).toBe(true);
    for (const v of e.values) expect(v.parent).toBe(e as DescEnum);
  }
});

test("a Ping and a Pong are empty messages: the hand-coded frames have nothing else to carry", () => {
  expect(PingSchema.fields).toEqual([]);
  expect(PongSchema.fields).toEqual([]);
  expect(ClientMessageSchema.field.ping!.number).toBe(30);
  expect(ServerMessageSchema.field.pong!.number).toBe(2);
});

test("the hand-coded Ping and Pong are protobuf-es's bytes and messages", () => {
  const pingBytes = toBinary(ClientMessageSchema, create(ClientMessageSchema, { msg: { case: "ping", value: {} } }));
  expect(encodeClientMessage({ case: "ping", value: {} })).toEqual(pingBytes);
  const decoded = decodeClientMessage(pingBytes);
  const reference = fromBinary(ClientMessageSchema, pingBytes);
  expect(decoded).toEqual(reference);
  expect(Object.getPrototypeOf(decoded)).toBe(Object.getPrototypeOf(reference));
  expect(Object.getPrototypeOf(decoded.msg.value)).toBe(Object.getPrototypeOf(reference.msg.value));
  // Each decode is a message of its own.
  expect(decodeClientMessage(pingBytes)).not.toBe(decoded);

  const pongBytes = toBinary(ServerMessageSchema, create(ServerMessageSchema, { msg: { case: "pong", value: {} } }));
  expect(encodeServerMessage({ case: "pong", value: {} })).toEqual(pongBytes);
  expect(encodeServerMessage({ case: "pong", value: create(PongSchema) })).toEqual(pongBytes);
  expect(decodeServerMessage(encodeServerMessage({ case: "pong", value: {} })).msg.case).toBe("pong");
});

test("a Ping with more in it, or a Pong with unknown fields, is coded by protobuf-es", () => {
  // Ping with an unknown field 1 (varint 7): decoded, the unknown field kept.
  const withUnknown = Uint8Array.of(0xf2, 0x01, 0x02, 0x08, 0x07);
  expect(decodeClientMessage(withUnknown)).toEqual(fromBinary(ClientMessageSchema, withUnknown));
  expect(decodeClientMessage(withUnknown).msg.value).toHaveProperty("$unknown");
  const pong = create(PongSchema);
  pong.$unknown = [{ no: 1, wireType: 0, data: Uint8Array.of(7) }];
  const bytes = encodeServerMessage({ case: "pong", value: pong });
  expect(bytes).toEqual(toBinary(ServerMessageSchema, create(ServerMessageSchema, { msg: { case: "pong", value: pong } })));
  expect(bytes.length).toBeGreaterThan(2);
});

test("importing the protocol and answering a Ping builds no descriptor; the first other use builds them", () => {
  const script = `
    import * as pb from ${JSON.stringify(join(REPO, "src/protocol/gen/crabtalk_pb.ts"))};
    import { decodeClientMessage, encodeServerMessage } from ${JSON.stringify(join(REPO, "src/protocol/codec.ts"))};
    const built = () => Object.hasOwn(pb.ClientMessageSchema, "fields") || Object.hasOwn(pb.file_crabtalk, "messages");
    const ping = decodeClientMessage(Uint8Array.of(0xf2, 0x01, 0x00));
    const pong = encodeServerMessage({ case: "pong", value: {} });
    const before = built();
    const name = pb.SendMsgSchema.typeName;
    console.log(JSON.stringify({ before, after: built(), ping: ping.msg.case, pong: [...pong], name }));
  `;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  expect(run.stderr.toString()).toBe("");
  expect(JSON.parse(run.stdout.toString())).toEqual({
    before: false,
    after: true,
    ping: "ping",
    pong: [0x12, 0x00],
    name: "crabtalk.protocol.SendMsg",
  });
});
