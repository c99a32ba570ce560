// Protobuf encode/decode of the two envelopes, and the type helpers the rest
// of the code uses to talk about one variant of an envelope.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { ClientMessageSchema, ServerMessageSchema, type ClientMessage, type ServerMessage } from "./gen/crabtalk_pb.ts";

export type ClientCase = NonNullable<ClientMessage["msg"]["case"]>;
export type ClientValue<C extends ClientCase> = Extract<ClientMessage["msg"], { case: C }>["value"];
export type ClientVariant = Exclude<ClientMessage["msg"], { case: undefined }>;

export type ServerCase = NonNullable<ServerMessage["msg"]["case"]>;
export type ServerValue<C extends ServerCase> = Extract<ServerMessage["msg"], { case: C }>["value"];
/** One server frame's payload in init form: `{ case: "pong", value: {} }`. */
export type Reply = NonNullable<MessageInitShape<typeof ServerMessageSchema>["msg"]>;
export type Request = NonNullable<MessageInitShape<typeof ClientMessageSchema>["msg"]>;

export function encodeClientMessage(msg: Request): Uint8Array {
  return toBinary(ClientMessageSchema, create(ClientMessageSchema, { msg }));
}

export function encodeServerMessage(msg: Reply): Uint8Array {
  if (isPlainPong(msg)) return PONG_BYTES.slice();
  return toBinary(ServerMessageSchema, create(ServerMessageSchema, { msg }));
}

/** Throws with the decoder's reason when the bytes are not a ClientMessage. */
export function decodeClientMessage(bytes: Uint8Array): ClientMessage {
  if (isPlainPing(bytes)) return pingMessage();
  return fromBinary(ClientMessageSchema, bytes);
}

// A Ping and its Pong by hand: the protocol's descriptors are built on first
// use (embedded-file.ts), so a daemon that has only been pinged (a client
// waiting for it to start) has not built them. Both messages are empty;
// test/protocol/ping-frames.test.ts checks these against protobuf-es.
/** ClientMessage{ping: Ping{}}: field 30, length-delimited, empty. */
const PING_BYTES = Uint8Array.of(0xf2, 0x01, 0x00);
/** ServerMessage{pong: Pong{}}: field 2, length-delimited, empty. */
const PONG_BYTES = Uint8Array.of(0x12, 0x00);

function isPlainPing(bytes: Uint8Array): boolean {
  return bytes.length === 3 && bytes[0] === PING_BYTES[0] && bytes[1] === PING_BYTES[1] && bytes[2] === PING_BYTES[2];
}

/** What fromBinary(ClientMessageSchema, PING_BYTES) gives. */
function pingMessage(): ClientMessage {
  return { $typeName: "crabtalk.protocol.ClientMessage", msg: { case: "ping", value: { $typeName: "crabtalk.protocol.Ping" } } };
}

/** A pong without unknown fields (the handler's `{ case: "pong", value: {} }`). */
function isPlainPong(msg: Reply): boolean {
  if (msg.case !== "pong") return false;
  for (const key in msg.value) if (key !== "$typeName") return false;
  return true;
}

export function decodeServerMessage(bytes: Uint8Array): ServerMessage {
  return fromBinary(ServerMessageSchema, bytes);
}

/** `getConversationHistory` → `GetConversationHistory`, the operation's name in the spec. */
export function operationName(c: ClientCase): string {
  return c.charAt(0).toUpperCase() + c.slice(1);
}
