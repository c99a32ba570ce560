// The recall result text (docs/memory.md#recall-output).
import type { MemoryEntry } from "./entry.ts";

export const NO_MEMORIES = "no memories found";

export function formatRecall(hits: readonly MemoryEntry[]): string {
  if (hits.length === 0) return NO_MEMORIES;
  return hits.map((e) => `## ${e.name}\n${e.description}\n\n${e.content}`).join("\n---\n");
}
