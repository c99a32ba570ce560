// A hand-written protobuf codec for the few messages the fast CLI path
// (src/cli/fast) uses, so it starts without protobuf-es building its runtime
// descriptors. Messages come out shaped exactly as protobuf-es shapes them
// ($typeName, defaults, optional fields only when present, oneofs as
// { case, value }), so the rest of the CLI cannot tell them apart.
// test/protocol/fast-codec.test.ts round-trips every message here against the
// generated code in both directions, unknown fields included.
import { FIXED32, FIXED64, LEN, Reader, VARINT, Writer } from "./wire.ts";

type Kind = "string" | "uint32" | "uint64" | "bool" | "double" | "message";

export interface FieldDesc {
  no: number;
  /** The protobuf-es property name (lowerCamelCase). */
  name: string;
  kind: Kind;
  /** proto3 `optional` (explicit presence) or a message field: absent until set. */
  optional?: boolean;
  repeated?: boolean;
  message?: () => MessageDesc;
}

export interface MessageDesc {
  typeName: string;
  fields: FieldDesc[];
  /** The one oneof of an envelope message, by its property name. */
  oneof?: string;
}

export type Msg = { $typeName: string; [key: string]: unknown };

const P = "crabtalk.protocol.";
const s = (no: number, name: string, optional = false): FieldDesc => ({ no, name, kind: "string", optional });
const u32 = (no: number, name: string, optional = false): FieldDesc => ({ no, name, kind: "uint32", optional });
const bool = (no: number, name: string): FieldDesc => ({ no, name, kind: "bool" });
const msg = (no: number, name: string, message: () => MessageDesc, repeated = false): FieldDesc => ({
  no,
  name,
  kind: "message",
  optional: !repeated,
  repeated,
  message,
});
const desc = (name: string, fields: FieldDesc[], oneof?: string): MessageDesc => ({ typeName: P + name, fields, oneof });

export const Ping: MessageDesc = desc("Ping", []);
export const Pong: MessageDesc = desc("Pong", []);
export const GetStats: MessageDesc = desc("GetStats", []);
export const Sessions: MessageDesc = desc("Sessions", []);
export const DaemonStats: MessageDesc = desc("DaemonStats", [
  { no: 1, name: "uptimeSecs", kind: "uint64" },
  u32(2, "activeSessions"),
  u32(3, "registeredAgents"),
  s(4, "activeModel"),
  s(5, "version"),
  { no: 50, name: "residentBytes", kind: "uint64" },
  { no: 51, name: "privateBytes", kind: "uint64" },
]);
export const SessionInfo: MessageDesc = desc("SessionInfo", [
  { no: 1, name: "id", kind: "uint64" },
  s(2, "agent"),
  s(3, "createdBy"),
  { no: 4, name: "messageCount", kind: "uint64" },
  { no: 5, name: "aliveSecs", kind: "uint64" },
  bool(6, "active"),
  s(7, "title"),
]);
export const SessionList: MessageDesc = desc("SessionList", [msg(1, "sessions", () => SessionInfo, true)]);
export const GetAgentMsg: MessageDesc = desc("GetAgentMsg", [s(1, "name")]);
export const StreamMsg: MessageDesc = desc("StreamMsg", [
  s(1, "agent"),
  s(2, "content"),
  { no: 3, name: "session", kind: "uint64", optional: true },
  s(4, "sender", true),
  s(5, "cwd", true),
  bool(6, "newChat"),
  s(7, "resumeFile", true),
  s(51, "model", true),
]);
export const ErrorMsg: MessageDesc = desc("ErrorMsg", [u32(1, "code"), s(2, "message")]);
export const TokenUsage: MessageDesc = desc("TokenUsage", [
  u32(1, "promptTokens"),
  u32(2, "completionTokens"),
  u32(3, "totalTokens"),
  u32(4, "cacheHitTokens", true),
  u32(5, "cacheMissTokens", true),
  u32(6, "reasoningTokens", true),
]);
export const StreamStart: MessageDesc = desc("StreamStart", [s(1, "agent"), { no: 2, name: "session", kind: "uint64" }]);
export const StreamChunk: MessageDesc = desc("StreamChunk", [s(1, "content")]);
export const StreamThinking: MessageDesc = desc("StreamThinking", [s(1, "content")]);
export const ToolCallInfo: MessageDesc = desc("ToolCallInfo", [s(1, "name"), s(2, "arguments"), s(50, "id")]);
export const ToolStartEvent: MessageDesc = desc("ToolStartEvent", [msg(1, "calls", () => ToolCallInfo, true)]);
export const ToolResultEvent: MessageDesc = desc("ToolResultEvent", [
  s(1, "callId"),
  s(2, "output"),
  { no: 3, name: "durationMs", kind: "uint64" },
  bool(4, "isError"),
]);
export const ToolsCompleteEvent: MessageDesc = desc("ToolsCompleteEvent", []);
export const StreamEnd: MessageDesc = desc("StreamEnd", [
  s(1, "agent"),
  s(2, "error"),
  s(3, "provider"),
  s(4, "model"),
  msg(5, "usage", () => TokenUsage),
  { no: 51, name: "costUsd", kind: "double", optional: true },
  bool(52, "interrupted"),
]);
export const AskOption: MessageDesc = desc("AskOption", [s(1, "label"), s(2, "description")]);
export const AskQuestion: MessageDesc = desc("AskQuestion", [
  s(1, "question"),
  s(2, "header"),
  msg(3, "options", () => AskOption, true),
  bool(4, "multiSelect"),
]);
export const AskUserEvent: MessageDesc = desc("AskUserEvent", [msg(1, "questions", () => AskQuestion, true)]);
export const StreamEvent: MessageDesc = desc(
  "StreamEvent",
  [
    msg(1, "start", () => StreamStart),
    msg(2, "chunk", () => StreamChunk),
    msg(3, "thinking", () => StreamThinking),
    msg(4, "toolStart", () => ToolStartEvent),
    msg(5, "toolResult", () => ToolResultEvent),
    msg(6, "toolsComplete", () => ToolsCompleteEvent),
    msg(7, "end", () => StreamEnd),
    msg(8, "askUser", () => AskUserEvent),
  ],
  "event",
);
const strings = (no: number, name: string): FieldDesc => ({ no, name, kind: "string", repeated: true });
export const AgentInfo: MessageDesc = desc("AgentInfo", [
  s(1, "name"),
  s(2, "description"),
  s(3, "config"),
  s(4, "model", true),
  u32(5, "maxIterations"),
  bool(6, "thinking"),
  strings(7, "members"),
  strings(8, "skills"),
  strings(9, "mcps"),
  u32(10, "compactThreshold", true),
  u32(11, "compactToolMaxLen"),
  s(21, "source"),
  strings(20, "approve"),
]);

/** The client envelope, limited to the requests the fast path sends. */
export const ClientMessage: MessageDesc = desc(
  "ClientMessage",
  [
    msg(2, "stream", () => StreamMsg),
    msg(4, "sessions", () => Sessions),
    msg(16, "getAgent", () => GetAgentMsg),
    msg(30, "ping", () => Ping),
    msg(33, "getStats", () => GetStats),
  ],
  "msg",
);

/** The server envelope, limited to the replies the fast path reads; other variants decode as no case. */
export const ServerMessage: MessageDesc = desc(
  "ServerMessage",
  [
    msg(1, "error", () => ErrorMsg),
    msg(2, "pong", () => Pong),
    msg(4, "stream", () => StreamEvent),
    msg(5, "sessions", () => SessionList),
    msg(11, "agentInfo", () => AgentInfo),
    msg(20, "stats", () => DaemonStats),
  ],
  "msg",
);

/**
 * The ids of the active sessions in a ServerMessage carrying a SessionList,
 * read without building a SessionInfo per session: `send` asks for the list
 * only for these, and a daemon may hold thousands. One loop over the bytes,
 * with no call per field, so that a short command ends before the JIT would
 * compile anything (issue 11). Undefined for any other reply (decode that).
 */
export function activeSessionIds(bytes: Uint8Array): bigint[] | undefined {
  const known = byNumberTable(ServerMessage);
  let ids: bigint[] | undefined;
  // Nested ends: [0] the message, [1] the SessionList, [2] the SessionInfo being read.
  const ends = [bytes.length, 0, 0];
  let depth = 0;
  let pos = 0;
  let id = 0n;
  let active = false;
  for (;;) {
    // Leaving an entry, then the list, in the same pass: every pass is a loop iteration the JIT counts.
    if (depth === 2 && pos === ends[2]) {
      if (active) ids!.push(id);
      depth = 1;
    }
    if (depth === 1 && pos === ends[1]) depth = 0;
    if (depth === 0 && pos === ends[0]) return ids;
    // A tag, then its value: varints inline, low 32 bits for tags and lengths.
    let tag = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= ends[depth] || shift > 63) throw new Error("premature end of protobuf message");
      const b = bytes[pos++];
      if (shift < 32) tag |= (b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    tag >>>= 0;
    const wireType = tag & 7;
    let value = 0n;
    let small = 0;
    if (wireType === VARINT || wireType === LEN) {
      for (let shift = 0; ; shift += 7) {
        if (pos >= ends[depth] || shift > 63) throw new Error("premature end of protobuf message");
        const b = bytes[pos++];
        if (wireType === VARINT) value |= BigInt(b & 0x7f) << BigInt(shift);
        if (shift < 32) small |= (b & 0x7f) << shift;
        if (b < 0x80) break;
      }
      small >>>= 0;
      if (wireType === LEN && pos + small > ends[depth]) throw new Error("premature end of protobuf message");
    } else if (wireType === FIXED64 || wireType === FIXED32) {
      pos += wireType === FIXED64 ? 8 : 4;
      if (pos > ends[depth]) throw new Error("premature end of protobuf message");
      continue;
    } else {
      // Groups are rare enough to be read by the general reader.
      const r = new Reader(bytes, pos, ends[depth]);
      r.skip(wireType, tag >>> 3);
      pos = r.pos;
      continue;
    }
    const no = tag >>> 3;
    if (depth === 0 && wireType === LEN && no === 5) {
      // The list seen twice merges: its repeated field concatenates.
      ids ??= [];
      ends[++depth] = pos + small;
    } else if (depth === 1 && wireType === LEN && no === 1) {
      id = 0n;
      active = false;
      ends[++depth] = pos + small;
    } else {
      if (depth === 2 && wireType === VARINT && no === 1) id = BigInt.asUintN(64, value);
      else if (depth === 2 && wireType === VARINT && no === 6) active = value !== 0n;
      // Another case of the oneof read after the list replaces it, as decode does.
      else if (depth === 0 && known[no] && WIRE[known[no]!.kind] === wireType) ids = undefined;
      if (wireType === LEN) pos += small;
    }
  }
}

/** A message with every implicit-presence field at its default, as protobuf-es `create` makes it. */
function empty(d: MessageDesc): Msg {
  const out: Msg = { $typeName: d.typeName };
  if (d.oneof) {
    out[d.oneof] = { case: undefined };
    return out;
  }
  for (const f of d.fields) {
    if (f.repeated) out[f.name] = [];
    else if (!f.optional) out[f.name] = f.kind === "string" ? "" : f.kind === "uint64" ? 0n : f.kind === "bool" ? false : 0;
  }
  return out;
}

const WIRE: Record<Kind, number> = { string: LEN, message: LEN, uint32: VARINT, uint64: VARINT, bool: VARINT, double: FIXED64 };

export function decode(d: MessageDesc, bytes: Uint8Array): Msg {
  return read(d, new Reader(bytes));
}

function read(d: MessageDesc, r: Reader): Msg {
  const out = empty(d);
  const fields = byNumberTable(d);
  while (r.pos < r.end) {
    // One-byte tags inline: fewer calls keep uint32 cold (see there).
    let tag = r.buf[r.pos];
    if (tag < 0x80) r.pos++;
    else tag = r.uint32();
    const no = tag >>> 3;
    const wireType = tag & 7;
    const f = fields[no];
    if (!f || WIRE[f.kind] !== wireType) {
      r.skip(wireType, no);
      continue;
    }
    const value = readValue(f, r);
    if (d.oneof) {
      const current = out[d.oneof] as { case?: string; value?: Msg };
      // A repeated oneof member merges into the one already read, as protobuf does.
      out[d.oneof] = { case: f.name, value: current.case === f.name ? merge(current.value as Msg, value as Msg) : value };
    } else if (f.repeated) (out[f.name] as unknown[]).push(value);
    else if (f.kind === "message" && out[f.name] !== undefined) out[f.name] = merge(out[f.name] as Msg, value as Msg);
    else out[f.name] = value;
  }
  return out;
}

/** Protobuf merge semantics for a message field seen twice: later scalars win, repeated fields concatenate. */
function merge(a: Msg, b: Msg): Msg {
  return read(descOf(a.$typeName), new Reader(concat(encode(descOf(a.$typeName), a), encode(descOf(b.$typeName), b))));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function readValue(f: FieldDesc, r: Reader): unknown {
  switch (f.kind) {
    case "string":
      return r.string();
    case "uint32":
      return r.uint32();
    case "uint64":
      return r.varint64();
    case "bool":
      return r.varint64() !== 0n;
    case "double":
      return r.double();
    case "message":
      return read(f.message!(), r.sub());
  }
}

export function encode(d: MessageDesc, m: Msg): Uint8Array {
  const w = new Writer();
  write(d, m, w);
  return w.finish();
}

function write(d: MessageDesc, m: Msg, w: Writer): void {
  if (d.oneof) {
    const { case: c, value } = m[d.oneof] as { case?: string; value?: Msg };
    const f = d.fields.find((x) => x.name === c);
    if (!f) {
      if (c !== undefined) throw new Error(`cannot encode ${d.typeName} case '${c}'`);
      return;
    }
    writeValue(f, value, w);
    return;
  }
  // In field-number order, as protobuf-es writes (AgentInfo declares 21 before 20).
  for (const f of byNumber(d)) {
    const v = m[f.name];
    if (v === undefined) continue;
    if (f.repeated) for (const item of v as unknown[]) writeValue(f, item, w);
    else if (f.optional || !isDefault(v)) writeValue(f, v, w);
  }
}

const sortedFields = new Map<MessageDesc, FieldDesc[]>();
const fieldTables = new Map<MessageDesc, Array<FieldDesc | undefined>>();

/** The fields indexed by number: no search (and no callback the JIT would warm to) per field read. */
function byNumberTable(d: MessageDesc): Array<FieldDesc | undefined> {
  let table = fieldTables.get(d);
  if (!table) {
    table = [];
    for (const f of d.fields) table[f.no] = f;
    fieldTables.set(d, table);
  }
  return table;
}

function byNumber(d: MessageDesc): FieldDesc[] {
  let fields = sortedFields.get(d);
  if (!fields) sortedFields.set(d, (fields = [...d.fields].sort((a, b) => a.no - b.no)));
  return fields;
}

function isDefault(v: unknown): boolean {
  return v === "" || v === 0 || v === 0n || v === false;
}

function writeValue(f: FieldDesc, v: unknown, w: Writer): void {
  w.tag(f.no, WIRE[f.kind]);
  switch (f.kind) {
    case "string":
      return w.string(v as string);
    case "uint32":
      return w.varint(v as number);
    case "uint64":
      return w.varint64(BigInt(v as bigint));
    case "bool":
      return w.varint(v ? 1 : 0);
    case "double":
      return w.double(v as number);
    case "message":
      return w.bytes(encode(f.message!(), v as Msg));
  }
}

const ALL = [
  Ping,
  Pong,
  GetStats,
  Sessions,
  DaemonStats,
  SessionInfo,
  SessionList,
  GetAgentMsg,
  StreamMsg,
  ErrorMsg,
  TokenUsage,
  StreamStart,
  StreamChunk,
  StreamThinking,
  ToolCallInfo,
  ToolStartEvent,
  ToolResultEvent,
  ToolsCompleteEvent,
  StreamEnd,
  AskOption,
  AskQuestion,
  AskUserEvent,
  StreamEvent,
  AgentInfo,
  ClientMessage,
  ServerMessage,
];

function descOf(typeName: string): MessageDesc {
  const d = ALL.find((x) => x.typeName === typeName);
  if (!d) throw new Error(`no fast codec for ${typeName}`);
  return d;
}

/** Every message the fast codec handles (the property test walks them all). */
export const FAST_MESSAGES: readonly MessageDesc[] = ALL;
