// Protobuf encode/decode of the two envelopes, and the type helpers the rest
// of the code uses to talk about one variant of an envelope.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import {
  ClientMessageSchema,
  ServerMessageSchema,
  type ClientMessage,
  type ServerMessage,
} from "./gen/crabtalk_pb.ts";

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
  return toBinary(ServerMessageSchema, create(ServerMessageSchema, { msg }));
}

/** Throws with the decoder's reason when the bytes are not a ClientMessage. */
export function decodeClientMessage(bytes: Uint8Array): ClientMessage {
  return fromBinary(ClientMessageSchema, bytes);
}

export function decodeServerMessage(bytes: Uint8Array): ServerMessage {
  return fromBinary(ServerMessageSchema, bytes);
}

/** `getConversationHistory` → `GetConversationHistory`, the operation's name in the spec. */
export function operationName(c: ClientCase): string {
  return c.charAt(0).toUpperCase() + c.slice(1);
}
