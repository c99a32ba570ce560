// The `recall` tool (docs/tools.md#memory-tools): keyword search of memory.
// Like every memory tool, its outcomes are normal answers (docs/tools.md#conventions).
import { z } from "zod";
import type { MemoryStore } from "../memory/store.ts";
import { defineTool } from "./define.ts";

export const RECALL_TOOL_DEFAULT_LIMIT = 5;

const input = z.object({
  query: z.string().describe("keywords to search memory for"),
  limit: z.number().int().nullable().optional().describe(`most entries to return (default ${RECALL_TOOL_DEFAULT_LIMIT})`),
});

export function recallTool(store: MemoryStore) {
  return defineTool({
    name: "recall",
    description: "Search memory by keyword. Returns the matching entries, best first.",
    input,
    async run(args) {
      return store.recall(args.query, args.limit ?? RECALL_TOOL_DEFAULT_LIMIT);
    },
  });
}
