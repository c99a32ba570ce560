// The protocol's file descriptor is committed as an object literal
// (gen-descriptor.ts, issue 11). It must be exactly what protoc-gen-es
// generates from proto/crabtalk.proto, hydrated by protobuf-es itself.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { toBinary } from "@bufbuild/protobuf";
import { fileDesc } from "@bufbuild/protobuf/codegenv2";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { descriptorLiteral, embedDescriptor } from "../../gen-descriptor.ts";
import { file_crabtalk } from "../../src/protocol/gen/crabtalk_pb.ts";

const REPO = resolve(import.meta.dir, "../..");
const GENERATED = join(REPO, "src/protocol/gen/crabtalk_pb.ts");

/** `buf generate` of proto/ into a temporary directory: protoc-gen-es's own output. */
function freshGeneration(): string {
  const out = mkdtempSync(join(tmpdir(), "crabtalk-gen-"));
  try {
    const template = join(out, "buf.gen.yaml");
    writeFileSync(template, `version: v2\nplugins:\n  - local: protoc-gen-es\n    out: ${out}\n    opt: target=ts\n`);
    const bin = join(REPO, "node_modules/.bin");
    const buf = Bun.spawnSync([join(bin, "buf"), "generate", "--template", template], {
      cwd: REPO,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      stderr: "pipe",
    });
    if (buf.exitCode !== 0) throw new Error(`buf generate failed: ${buf.stderr.toString()}`);
    return readFileSync(join(out, "crabtalk_pb.ts"), "utf8");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Own fields and the prototype's (the defaults of unset fields), all the way down. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  const proto = Object.getPrototypeOf(value);
  const own = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return proto === Object.prototype ? own : { own, defaults: { ...proto } };
}

test("the committed generated code is protoc-gen-es's output with its descriptor embedded", () => {
  const fresh = freshGeneration();
  expect(readFileSync(GENERATED, "utf8")).toBe(embedDescriptor(fresh));
});

test("the embedded descriptor is the decoded one: same fields, same defaults, same bytes", () => {
  const b64 = /fileDesc\("([^"]+)"\)/.exec(freshGeneration())![1];
  const decoded = fileDesc(b64).proto;
  expect(shape(file_crabtalk.proto)).toEqual(shape(decoded));
  expect(toBinary(FileDescriptorProtoSchema, file_crabtalk.proto)).toEqual(toBinary(FileDescriptorProtoSchema, decoded));
  expect(file_crabtalk.messages.map((m) => m.typeName)).toEqual(fileDesc(b64).messages.map((m) => m.typeName));
});

test("the literal writer refuses what it cannot reproduce", () => {
  expect(() => descriptorLiteral({ f: () => 1 })).toThrow("cannot embed a function");
  expect(() => descriptorLiteral(Object.create(Object.create({ a: 1 })))).toThrow("prototype chain");
  expect(() => descriptorLiteral({ [Symbol("s")]: 1 })).toThrow("symbol");
});
