// The `forget` tool (docs/tools.md#memory-tools): delete an entry by name. A
// failure to delete is a normal answer too (docs/tools.md#conventions: is_error false).
import { z } from "zod";
import { errorText } from "../memory/files.ts";
import type { MemoryStore } from "../memory/store.ts";
import { defineTool } from "./define.ts";

const input = z.object({ name: z.string().describe("name of the entry to delete") });

export function forgetTool(store: MemoryStore) {
  return defineTool({
    name: "forget",
    description: "Delete a memory entry by name.",
    input,
    async run(args) {
      try {
        return (await store.forget(args.name)) ? `forgot: ${args.name}` : `no entry named: ${args.name}`;
      } catch (err) {
        return `failed to delete entry: ${errorText(err)}`;
      }
    },
  });
}
