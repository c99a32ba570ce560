// Memory as a runtime hook: the prompt's memory block (docs/agent-loop.md#system-prompt item 3),
// the four memory tools (in ../tools/), and auto-recall before each run
// (docs/memory.md#auto-recall, docs/agent-loop.md#injected-context item 2).
import type { UserMessage } from "../../model/types.ts";
import type { RunScene, RuntimeHook } from "../hooks.ts";
import { MEMORY_GUIDANCE } from "./guidance.ts";
import { formatRecall } from "./recall-format.ts";
import type { MemoryStore } from "./store.ts";
import { forgetTool } from "../tools/forget.ts";
import { memoryTool } from "../tools/memory.ts";
import { recallTool } from "../tools/recall.ts";
import { rememberTool } from "../tools/remember.ts";

/** Words of the user's message that auto-recall searches with. */
export const AUTO_RECALL_WORDS = 8;
export const DEFAULT_RECALL_LIMIT = 5;

/** The scene as memory reads it: the runtime adds the text of the run's user message. */
export interface MemoryRunScene extends RunScene {
  /** The last non-empty user message of the history (normally the new one). */
  userMessage?: string;
}

export function memoryBlock(index: string): string {
  const overview = index.trim();
  return `\n\n${overview === "" ? "" : `<memory>\n${overview}\n</memory>\n\n`}${MEMORY_GUIDANCE}`;
}

/** The `<recall>` message for a user message, or undefined when nothing matches. */
export function autoRecall(store: MemoryStore, userMessage: string | undefined, limit: number): UserMessage | undefined {
  const query = (userMessage ?? "")
    .split(/\s+/)
    .filter((w) => w !== "")
    .slice(0, AUTO_RECALL_WORDS)
    .join(" ");
  if (query === "") return undefined;
  const hits = store.search(query, limit);
  if (hits.length === 0) return undefined;
  return { role: "user", content: `<recall>\n${formatRecall(hits)}\n</recall>` };
}

export function memoryHook(store: MemoryStore, recallLimit: number = DEFAULT_RECALL_LIMIT): RuntimeHook {
  return {
    promptBlock: () => memoryBlock(store.readIndex()),
    registerTools(registry) {
      registry.register(recallTool(store));
      registry.register(rememberTool(store));
      registry.register(forgetTool(store));
      registry.register(memoryTool(store));
    },
    beforeRun(scene: MemoryRunScene) {
      const message = autoRecall(store, scene.userMessage, recallLimit);
      return message ? [message] : [];
    },
  };
}
