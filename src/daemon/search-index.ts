// The daemon's timers for conversation search (docs/search.md): the index is
// loaded in the background at start, so the first search need not wait, and
// its snapshot is written every few seconds while runs change it.
import type { ConversationIndex } from "../runtime/search/conversation-index.ts";

export const SEARCH_INDEX_SAVE_MS = 5000;

export function keepSearchIndex(index: ConversationIndex | undefined, warn: (m: string) => void): { stop(): void } {
  if (!index) return { stop() {} };
  index.load().catch((err: Error) => warn(`conversation search index: ${err.message}`));
  let saving = false;
  const timer = setInterval(() => {
    if (saving || !index.unsaved) return;
    saving = true;
    void index.save().finally(() => (saving = false));
  }, SEARCH_INDEX_SAVE_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
