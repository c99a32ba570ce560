// The daemon's timers for conversation search (docs/search.md): the index is
// loaded in the background at start, so the first search need not wait; its
// snapshot is written every few seconds while runs change it, and once unused
// for `[system.sessions] unload_after` it leaves memory until the next search.
import type { ConversationIndex } from "../runtime/search/conversation-index.ts";
import type { SessionTable } from "../runtime/sessions.ts";
import { releaseMemory } from "./release-memory.ts";
import type { Logger } from "./log.ts";

export const SEARCH_INDEX_SAVE_MS = 5000;

export function keepSearchIndex(index: ConversationIndex | undefined, sessions: SessionTable, log: Pick<Logger, "warn" | "info">): { stop(): void } {
  if (!index) return { stop() {} };
  index.load().catch((err: Error) => log.warn(`conversation search index: ${err.message}`));
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      if (index.unsaved) await index.save();
      if (await index.unloadIfIdle()) {
        log.info("unloaded the idle conversation search index");
        releaseMemory(sessions);
      }
    })()
      .catch((err: Error) => log.warn(`conversation search index: ${err.message}`))
      .finally(() => (busy = false));
  }, SEARCH_INDEX_SAVE_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
