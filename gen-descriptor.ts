// Run by `bun run gen` after `buf generate`: replaces the base64 file
// descriptor in src/protocol/gen/*_pb.ts by an object literal that
// src/protocol/embedded-file.ts hydrates without decoding (issue 11: the
// decoding was ~8 ms of every start), and on first use (issue 23: building
// every message's descriptor was ~4 ms of a daemon's start). test/protocol/embedded-descriptor.test.ts
// checks the result against a fresh `buf generate`.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileDesc } from "@bufbuild/protobuf/codegenv2";

const FILE = resolve(import.meta.dir, "src/protocol/gen/crabtalk_pb.ts");
const CALL = /\bfileDesc\("([A-Za-z0-9+/=]+)"\)/;

/** `value` as JavaScript source; message objects keep their prototypes (`m(index, own fields)`). */
export function descriptorLiteral(value: unknown): { prototypes: string; body: string } {
  const protos = new Map<object, number>();
  const protoSources: string[] = [];
  const lit = (v: unknown): string => {
    if (v === undefined) return "undefined";
    if (v === null) return "null";
    if (typeof v === "string") return JSON.stringify(v);
    if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
    if (typeof v === "boolean") return String(v);
    if (typeof v === "bigint") return `${v}n`;
    if (Array.isArray(v)) return `[${v.map(lit).join(",")}]`;
    if (v instanceof Uint8Array) return `new Uint8Array([${v.join(",")}])`;
    if (typeof v !== "object") throw new Error(`cannot embed a ${typeof v}`);
    if (Reflect.ownKeys(v).length !== Object.keys(v).length) throw new Error("cannot embed hidden or symbol keys");
    const own = `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${lit(x)}`)
      .join(",")}}`;
    const proto = Object.getPrototypeOf(v) as object;
    if (proto === Object.prototype) return own;
    let index = protos.get(proto);
    if (index === undefined) {
      if (Object.getPrototypeOf(proto) !== Object.prototype) throw new Error("cannot embed a prototype chain");
      index = protos.size;
      protos.set(proto, index);
      protoSources.push(lit({ ...proto }));
    }
    return `m(${index},${own})`;
  };
  const body = lit(value);
  return { prototypes: `[${protoSources.join(",")}]`, body };
}

/** The generated `source` with its fileDesc("base64") replaced by embeddedFile(literal). */
export function embedDescriptor(source: string): string {
  const b64 = CALL.exec(source)?.[1];
  if (!b64) throw new Error("no fileDesc() call in the generated code");
  const root = fileDesc(b64).proto;
  if (root.dependency.length > 0) throw new Error("embeddedFile() handles a file without imports only");
  const { prototypes, body } = descriptorLiteral(root);
  const out = source
    .replace(
      'import { enumDesc, fileDesc, messageDesc } from "@bufbuild/protobuf/codegenv2";',
      // Ours: descriptors built on first use (src/protocol/embedded-file.ts).
      'import { embeddedFile, enumDesc, messageDesc } from "../embedded-file.ts";',
    )
    .replace(CALL, `embeddedFile(${prototypes}, (m) => (${body}))`);
  if (out.includes("fileDesc")) throw new Error("generated code changed shape: fileDesc is still referenced");
  return out;
}

if (import.meta.main) {
  const source = readFileSync(FILE, "utf8");
  if (!CALL.test(source)) {
    console.log(`${FILE}: no fileDesc() call (already embedded)`);
  } else {
    writeFileSync(FILE, embedDescriptor(source));
    console.log(`${FILE}: file descriptor embedded as a literal`);
  }
}
