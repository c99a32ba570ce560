// The `memory` tool (docs/tools.md#memory-tools): overwrite MEMORY.md, the
// overview every session sees. A failure to write is a normal answer too
// (docs/tools.md#conventions: is_error false).
import { z } from "zod";
import { errorText } from "../memory/files.ts";
import type { MemoryStore } from "../memory/store.ts";
import { defineTool } from "./define.ts";

const input = z.object({ content: z.string().describe("the complete new MEMORY.md") });

export function memoryTool(store: MemoryStore) {
  return defineTool({
    name: "memory",
    description:
      "Overwrite MEMORY.md, the curated overview injected into every session. " +
      "It replaces the whole file: read the current overview (in <memory>) before overwriting.",
    input,
    async run(args) {
      try {
        await store.writeIndex(args.content);
        return "MEMORY.md updated";
      } catch (err) {
        return `failed to write MEMORY.md: ${errorText(err)}`;
      }
    },
  });
}
