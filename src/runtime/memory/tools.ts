// The memory tools (docs/tools.md#memory-tools). Every outcome, failures to write
// included, is a normal answer (docs/tools.md#conventions: is_error false).
import { z } from "zod";
import type { Tool, ToolRegistry } from "../tools.ts";
import { errorText } from "./files.ts";
import type { MemoryStore } from "./store.ts";

export const RECALL_TOOL_DEFAULT_LIMIT = 5;

const recallInput = z.object({
  query: z.string().describe("keywords to search memory for"),
  limit: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe(`most entries to return (default ${RECALL_TOOL_DEFAULT_LIMIT})`),
});
const rememberInput = z.object({
  name: z.string().describe("identifies the entry; saving an existing name updates it"),
  description: z.string().describe("one line saying what the entry is about; drives search relevance"),
  content: z.string().describe("the memory itself"),
});
const forgetInput = z.object({ name: z.string().describe("name of the entry to delete") });
const memoryInput = z.object({ content: z.string().describe("the complete new MEMORY.md") });

export function recallTool(store: MemoryStore): Tool<z.output<typeof recallInput>> {
  return {
    name: "recall",
    description: "Search memory by keyword. Returns the matching entries, best first.",
    input: recallInput,
    async handler(args) {
      return store.recall(args.query, args.limit ?? RECALL_TOOL_DEFAULT_LIMIT);
    },
  };
}

export function rememberTool(store: MemoryStore): Tool<z.output<typeof rememberInput>> {
  return {
    name: "remember",
    description:
      "Save or update a memory entry. The name identifies it (the same name overwrites); " +
      "the description drives search relevance, so make it specific.",
    input: rememberInput,
    async handler(args) {
      try {
        const entry = await store.remember(args.name, args.description, args.content);
        return `remembered: ${entry.name}`;
      } catch (err) {
        return `failed to save entry: ${errorText(err)}`;
      }
    },
  };
}

export function forgetTool(store: MemoryStore): Tool<z.output<typeof forgetInput>> {
  return {
    name: "forget",
    description: "Delete a memory entry by name.",
    input: forgetInput,
    async handler(args) {
      try {
        return (await store.forget(args.name)) ? `forgot: ${args.name}` : `no entry named: ${args.name}`;
      } catch (err) {
        return `failed to delete entry: ${errorText(err)}`;
      }
    },
  };
}

export function memoryTool(store: MemoryStore): Tool<z.output<typeof memoryInput>> {
  return {
    name: "memory",
    description:
      "Overwrite MEMORY.md, the curated overview injected into every session. " +
      "It replaces the whole file: read the current overview (in <memory>) before overwriting.",
    input: memoryInput,
    async handler(args) {
      try {
        await store.writeIndex(args.content);
        return "MEMORY.md updated";
      } catch (err) {
        return `failed to write MEMORY.md: ${errorText(err)}`;
      }
    },
  };
}

/** Registers the four tools in registry order (docs/tools.md#the-registry). */
export function registerMemoryTools(registry: ToolRegistry, store: MemoryStore): void {
  registry.register(recallTool(store));
  registry.register(rememberTool(store));
  registry.register(forgetTool(store));
  registry.register(memoryTool(store));
}
