// The protocol's file descriptor from an object literal (issue 11), hydrated
// on first use (issue 23). protoc-gen-es embeds it as base64 that fileDesc()
// decodes with protobuf-es's own reflection: booting descriptor.proto and
// decoding costs a start ~8 ms of CPU and ~4 MiB. gen-descriptor.ts (run by
// `bun run gen`) writes the decoded message as a literal instead, and points
// the generated messageDesc()/enumDesc() calls here.
//
// Building the registry of every message (~4 ms of a daemon's start) waits
// until a descriptor is first read: the generated module exports stand-ins
// whose prototype holds getters; the first read of any of them builds the
// registry with protobuf-es and gives each stand-in the own properties of its
// descriptor, so the exported objects are the descriptors from then on (the
// graph's references, field.message and parents included, point to them).
// The registry and every schema are protobuf-es's, unchanged.
import { createFileRegistry } from "@bufbuild/protobuf";
import type { DescEnum, DescFile, DescMessage, JsonValue, Message } from "@bufbuild/protobuf";
import type { GenEnum, GenFile, GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";

/** Makes a message object: own fields over a prototype holding its unset fields' defaults, as the decoder does. */
export type MessageMaker = (prototype: number, own: object) => object;

/**
 * The own properties of protobuf-es's descriptors (registry.js: addFile,
 * addMessage, addEnum); a stand-in answers each by building the registry.
 * test/protocol/lazy-descriptors.test.ts fails when protobuf-es adds one.
 */
export const FILE_KEYS = ["kind", "proto", "deprecated", "edition", "name", "dependencies", "enums", "messages", "extensions", "services", "toString"];
export const MESSAGE_KEYS = [
  "kind",
  "proto",
  "deprecated",
  "file",
  "parent",
  "name",
  "typeName",
  "fields",
  "field",
  "oneofs",
  "members",
  "nestedEnums",
  "nestedMessages",
  "nestedExtensions",
  "toString",
];
export const ENUM_KEYS = ["kind", "proto", "deprecated", "file", "parent", "open", "name", "typeName", "value", "values", "sharedPrefix", "toString"];

interface LazyFile {
  /** Builds the registry (once) and turns every stand-in into its descriptor. */
  hydrate(): void;
  /** Stand-ins handed out, by kind and path ("m:3.0", "e:1"). */
  stubs: Map<string, object>;
  messageProto: object;
  enumProto: object;
}

const lazyFiles = new WeakMap<object, LazyFile>();

/** A prototype whose getters build the registry, then read the (now own) property. */
function stubPrototype(keys: string[], hydrate: () => void): object {
  const proto = {};
  for (const key of keys) {
    Object.defineProperty(proto, key, {
      get(this: Record<string, unknown>) {
        hydrate();
        if (!Object.hasOwn(this, key)) throw new Error(`protocol descriptor has no property '${key}'`);
        return this[key];
      },
      configurable: true,
    });
  }
  return proto;
}

/** Hydrates a file descriptor without imports from its FileDescriptorProto, built by `build` over `prototypes`, on first use. */
export function embeddedFile(prototypes: object[], build: (m: MessageMaker) => object): GenFile {
  let hydrated = false;
  const hydrate = () => {
    if (hydrated) return;
    hydrated = true;
    const root = build((p, own) => Object.assign(Object.create(prototypes[p]), own)) as FileDescriptorProto;
    const real = createFileRegistry(root, () => undefined).getFile(root.name);
    if (!real) throw new Error(`protocol descriptor: no file ${root.name}`);
    adopt(real, file, lazy.stubs);
  };
  const file = Object.create(stubPrototype(FILE_KEYS, hydrate)) as GenFile;
  const lazy: LazyFile = {
    hydrate,
    stubs: new Map(),
    messageProto: stubPrototype(MESSAGE_KEYS, hydrate),
    enumProto: stubPrototype(ENUM_KEYS, hydrate),
  };
  lazyFiles.set(file, lazy);
  return file;
}

function lazyOf(file: DescFile): LazyFile {
  const lazy = lazyFiles.get(file);
  if (!lazy) throw new Error("not a file from embeddedFile()");
  return lazy;
}

function stub(lazy: LazyFile, key: string, proto: object): object {
  let s = lazy.stubs.get(key);
  if (!s) {
    s = Object.create(proto) as object;
    lazy.stubs.set(key, s);
  }
  return s;
}

/** codegenv2's messageDesc(), for a file from embeddedFile(): the message at `path`, a stand-in until first use. */
export function messageDesc<Shape extends Message, Opt extends { jsonType?: unknown; validType?: unknown } = { jsonType: undefined; validType: undefined }>(
  file: DescFile,
  path: number,
  ...paths: number[]
): GenMessage<Shape, Opt> {
  const lazy = lazyOf(file);
  return stub(lazy, `m:${[path, ...paths].join(".")}`, lazy.messageProto) as GenMessage<Shape, Opt>;
}

/** codegenv2's enumDesc(), for a file from embeddedFile(): the enum at `path`, a stand-in until first use. */
export function enumDesc<Shape extends number, JsonType extends JsonValue = JsonValue>(
  file: DescFile,
  path: number,
  ...paths: number[]
): GenEnum<Shape, JsonType> {
  const lazy = lazyOf(file);
  return stub(lazy, `e:${[path, ...paths].join(".")}`, lazy.enumProto) as GenEnum<Shape, JsonType>;
}

/** The descriptor at a stand-in's key, found as codegenv2's messageDesc()/enumDesc() find it. */
function descAt(file: DescFile, key: string): DescMessage | DescEnum {
  const [kind, rest] = key.split(":") as [string, string];
  const path = rest.split(".").map(Number);
  const message = (p: number[]) => p.slice(1).reduce((acc, i) => acc.nestedMessages[i]!, file.messages[p[0]!]!);
  const found = kind === "m" ? message(path) : path.length === 1 ? file.enums[path[0]!] : message(path.slice(0, -1)).nestedEnums[path.at(-1)!];
  if (!found) throw new Error(`protocol descriptor: nothing at ${key}`);
  return found;
}

/**
 * Gives each stand-in the own properties of its descriptor in `real`, then
 * points every reference of the graph (files, parents, field types,
 * nested lists) at the stand-ins, so that there is one object per descriptor.
 */
function adopt(real: DescFile, file: object, stubs: Map<string, object>): void {
  const swap = new Map<object, object>([[real, file]]);
  for (const [key, s] of stubs) swap.set(descAt(real, key), s);
  const to = <T>(d: T): T => (d !== undefined && swap.has(d as object) ? (swap.get(d as object) as T) : d);
  const visitEnum = (e: DescEnum) => {
    const mut = e as { file: DescFile; parent: DescMessage | undefined };
    mut.file = to(e.file);
    mut.parent = to(e.parent);
    for (const v of e.values) (v as { parent: DescEnum }).parent = to(v.parent);
  };
  const visitMessage = (m: DescMessage) => {
    const mut = m as { file: DescFile; parent: DescMessage | undefined; nestedMessages: DescMessage[]; nestedEnums: DescEnum[] };
    mut.file = to(m.file);
    mut.parent = to(m.parent);
    for (const f of m.fields) {
      const field = f as { parent: DescMessage; message?: DescMessage; enum?: DescEnum };
      field.parent = to(field.parent);
      field.message = to(field.message);
      field.enum = to(field.enum);
    }
    for (const o of m.oneofs) (o as { parent: DescMessage }).parent = to(o.parent);
    for (const n of m.nestedMessages) visitMessage(n);
    for (const n of m.nestedEnums) visitEnum(n);
    mut.nestedMessages = m.nestedMessages.map(to);
    mut.nestedEnums = m.nestedEnums.map(to);
  };
  if (real.extensions.length > 0 || real.services.length > 0) throw new Error("embeddedFile() handles a file without extensions or services only");
  for (const m of real.messages) visitMessage(m);
  for (const e of real.enums) visitEnum(e);
  const mutFile = real as { messages: DescMessage[]; enums: DescEnum[] };
  mutFile.messages = real.messages.map(to);
  mutFile.enums = real.enums.map(to);
  // The own properties last: the stand-ins' getters stay in force until the graph is whole.
  for (const [desc, s] of swap) Object.defineProperties(s, Object.getOwnPropertyDescriptors(desc));
}
