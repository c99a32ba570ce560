// The `remember` tool (docs/tools.md#memory-tools): save or update an entry. A
// failure to write is a normal answer too (docs/tools.md#conventions: is_error false).
import { z } from "zod";
import { errorText } from "../memory/files.ts";
import type { MemoryStore } from "../memory/store.ts";
import { defineTool } from "./define.ts";

const input = z.object({
  name: z.string().describe("identifies the entry; saving an existing name updates it"),
  description: z.string().describe("one line saying what the entry is about; drives search relevance"),
  content: z.string().describe("the memory itself"),
});

export function rememberTool(store: MemoryStore) {
  return defineTool({
    name: "remember",
    description:
      "Save or update a memory entry. The name identifies it (the same name overwrites); " + "the description drives search relevance, so make it specific.",
    input,
    async run(args) {
      try {
        const entry = await store.remember(args.name, args.description, args.content);
        return `remembered: ${entry.name}`;
      } catch (err) {
        return `failed to save entry: ${errorText(err)}`;
      }
    },
  });
}
