// The memory tools through the real registry: exact results and flags (docs/tools.md#memory-tools, docs/tools.md#conventions).
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { ToolCallContext } from "../../../src/runtime/tools/define.ts";
import { ToolRegistry } from "../../../src/runtime/tools/registry.ts";
import { memoryHook } from "../../../src/runtime/memory/hook.ts";
import type { AgentDefinition } from "../../../src/runtime/agent-settings.ts";
import { openStore, removeTempDirs } from "./helpers.ts";

afterAll(removeTempDirs);

const ctx = {
  agent: "crab",
  session: 1n,
  signal: new AbortController().signal,
  cwd: "/",
  streaming: true,
  agentDef: {} as AgentDefinition,
} satisfies ToolCallContext;

async function setup() {
  const opened = await openStore();
  const registry = new ToolRegistry();
  memoryHook(opened.store).registerTools!(registry);
  let n = 0;
  const call = (name: string, args: Record<string, unknown>) => registry.dispatch({ id: `c${++n}`, name, arguments: JSON.stringify(args) }, ctx);
  return { ...opened, registry, call };
}

test("registers recall, remember, forget and memory with object schemas", async () => {
  const { registry } = await setup();
  expect(registry.names()).toEqual(["recall", "remember", "forget", "memory"]);
  const schemas = Object.fromEntries(registry.schemas().map((s) => [s.name, s.parameters]));
  expect(schemas.recall).toMatchObject({ type: "object", required: ["query"] });
  expect(schemas.remember).toMatchObject({ type: "object", required: ["name", "description", "content"] });
  expect(schemas.forget).toMatchObject({ type: "object", required: ["name"] });
  expect(schemas.memory).toMatchObject({ type: "object", required: ["content"] });
});

test("remember, recall, forget: exact strings, never errors", async () => {
  const { call } = await setup();
  expect(await call("recall", { query: "vet" })).toEqual({ output: "no memories found", isError: false });
  expect(await call("remember", { name: "vet", description: "Luna vet visit", content: "Tuesday" })).toEqual({
    output: "remembered: vet",
    isError: false,
  });
  expect(await call("recall", { query: "luna vet", limit: null })).toEqual({
    output: "## vet\nLuna vet visit\n\nTuesday",
    isError: false,
  });
  expect(await call("forget", { name: "vet" })).toEqual({ output: "forgot: vet", isError: false });
  expect(await call("forget", { name: "vet" })).toEqual({ output: "no entry named: vet", isError: false });
});

test("recall defaults to 5 results and honours limit", async () => {
  const { call, store } = await setup();
  for (let i = 0; i < 7; i++) await store.remember(`plant ${i}`, "houseplant care", `water weekly ${"x".repeat(i)}`);
  const count = (text: string) => text.split("\n---\n").length;
  expect(count((await call("recall", { query: "houseplant" })).output)).toBe(5);
  expect(count((await call("recall", { query: "houseplant", limit: 2 })).output)).toBe(2);
  expect(count((await call("recall", { query: "houseplant", limit: 50 })).output)).toBe(7);
});

test("failed writes are normal answers with the specified prefixes", async () => {
  const { call, dir } = await setup();
  expect(await call("remember", { name: " ", description: "d", content: "c" })).toEqual({
    output: "failed to save entry: name is empty",
    isError: false,
  });
  rmSync(dir, { recursive: true });
  const saved = await call("remember", { name: "n", description: "d", content: "c" });
  expect(saved.isError).toBe(false);
  expect(saved.output).toStartWith("failed to save entry: ");
  const index = await call("memory", { content: "overview" });
  expect(index.isError).toBe(false);
  expect(index.output).toStartWith("failed to write MEMORY.md: ");
});

test("memory overwrites MEMORY.md", async () => {
  const { call, store, dir } = await setup();
  expect(await call("memory", { content: "# Sam\n- night owl\n" })).toEqual({ output: "MEMORY.md updated", isError: false });
  expect(store.readIndex()).toBe("# Sam\n- night owl\n");
  expect(await Bun.file(join(dir, "MEMORY.md")).text()).toBe("# Sam\n- night owl\n");
});

test("invalid arguments are rejected before anything runs", async () => {
  const { call, store } = await setup();
  const r = await call("remember", { name: "only a name" });
  expect(r.isError).toBe(true);
  expect(r.output).toStartWith("invalid arguments: ");
  expect(store.names()).toEqual([]);
  expect((await call("recall", { query: "x", limit: 1.5 })).isError).toBe(true);
});
