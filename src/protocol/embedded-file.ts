// The protocol's file descriptor from an object literal (issue 11). protoc-gen-es
// embeds it as base64 that fileDesc() decodes with protobuf-es's own reflection:
// booting descriptor.proto and decoding costs a start ~8 ms of CPU and ~4 MiB.
// gen-descriptor.ts (run by `bun run gen`) writes the decoded message as a
// literal instead; the registry and every schema are protobuf-es's, unchanged.
import { createFileRegistry } from "@bufbuild/protobuf";
import type { GenFile } from "@bufbuild/protobuf/codegenv2";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";

/** Makes a message object: own fields over a prototype holding its unset fields' defaults, as the decoder does. */
export type MessageMaker = (prototype: number, own: object) => object;

/** Hydrates a file descriptor without imports from its FileDescriptorProto, built by `build` over `prototypes`. */
export function embeddedFile(prototypes: object[], build: (m: MessageMaker) => object): GenFile {
  const root = build((p, own) => Object.assign(Object.create(prototypes[p]), own)) as FileDescriptorProto;
  return createFileRegistry(root, () => undefined).getFile(root.name) as GenFile;
}
