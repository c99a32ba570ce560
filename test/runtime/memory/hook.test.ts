// Memory as a runtime hook: prompt block (docs/agent-loop.md#system-prompt item 3) and auto-recall (docs/memory.md#auto-recall, docs/agent-loop.md#injected-context item 2).
import { afterAll, expect, test } from "bun:test";
import { composePrompt, injected } from "../../../src/runtime/hooks.ts";
import type { AgentDefinition } from "../../../src/runtime/agent-settings.ts";
import { ToolRegistry } from "../../../src/runtime/tools/registry.ts";
import { MEMORY_GUIDANCE } from "../../../src/runtime/memory/guidance.ts";
import { memoryHook, type MemoryRunScene } from "../../../src/runtime/memory/hook.ts";
import { openStore, removeTempDirs } from "./helpers.ts";

afterAll(removeTempDirs);

const agent = { name: "crab" } as AgentDefinition;
const scene = (userMessage?: string): MemoryRunScene => ({
  agent,
  agents: [agent],
  cwd: "/",
  home: "/home",
  session: 1n,
  userMessage,
});

test("prompt block without MEMORY.md: two newlines then the guidance", async () => {
  const { store } = await openStore();
  expect(composePrompt([memoryHook(store, 5)], "BASE", agent)).toBe(`BASE\n\n${MEMORY_GUIDANCE}`);
  await store.writeIndex("  \n");
  expect(composePrompt([memoryHook(store, 5)], "BASE", agent)).toBe(`BASE\n\n${MEMORY_GUIDANCE}`);
});

test("prompt block with MEMORY.md: the <memory> block, two newlines, the guidance", async () => {
  const { store } = await openStore();
  await store.writeIndex("# Sam\n- night owl\n");
  expect(composePrompt([memoryHook(store, 5)], "BASE", agent)).toBe(`BASE\n\n<memory>\n# Sam\n- night owl\n</memory>\n\n${MEMORY_GUIDANCE}`);
});

test("the guidance covers the four tools and what to remember", () => {
  for (const word of ["companion", "recall", "remember", "forget", "memory", "MEMORY.md", "corrections", "duplicate"]) {
    expect(MEMORY_GUIDANCE).toContain(word);
  }
});

test("registerTools adds the four memory tools", async () => {
  const { store } = await openStore();
  const registry = new ToolRegistry();
  memoryHook(store, 5).registerTools!(registry);
  expect(registry.names().sort()).toEqual(["forget", "memory", "recall", "remember"]);
});

test("auto-recall injects <recall> for the first 8 words, limited by recall_limit", async () => {
  const { store } = await openStore();
  await store.remember("coffee", "coffee preference", "oat flat white");
  await store.remember("tea", "tea preference", "green tea, coffee never after noon");
  await store.remember("late", "dinner plans", "pasta");
  const hooks = [memoryHook(store, 1)];
  expect(injected(hooks, scene("what   coffee\ndo I like?"))).toEqual([
    { role: "user", content: "<recall>\n## coffee\ncoffee preference\n\noat flat white\n</recall>", injected: true },
  ]);
  const two = injected([memoryHook(store, 5)], scene("coffee"));
  expect(two[0]!.content).toBe(
    "<recall>\n## coffee\ncoffee preference\n\noat flat white\n---\n## tea\ntea preference\n\ngreen tea, coffee never after noon\n</recall>",
  );
  // "dinner" is the ninth word: not searched.
  expect(injected(hooks, scene("one two three four five six seven eight dinner"))).toEqual([]);
  expect(injected(hooks, scene("one two three four five six seven dinner"))).toHaveLength(1);
});

test("no injection when nothing matches, the message is empty or absent", async () => {
  const { store } = await openStore();
  await store.remember("coffee", "coffee preference", "oat flat white");
  const hooks = [memoryHook(store, 5)];
  expect(injected(hooks, scene("tell me a joke"))).toEqual([]);
  expect(injected(hooks, scene("   "))).toEqual([]);
  expect(injected(hooks, scene())).toEqual([]);
});
