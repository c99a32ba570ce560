// A history longer than the model's context window is cut to its newest part
// before a run (docs/sessions.md#large-conversations): a resumed long
// conversation, or one whose agent never compacts, still gets an answer
// instead of a provider's "context length exceeded". The file keeps all of it.
import type { Message } from "../model/types.ts";
import { historyBytes } from "../session/estimate.ts";
import { historyTokens } from "./working-history.ts";

/** Share of the window the history may fill: the rest is for the system prompt, tools and the answer. */
const HISTORY_SHARE = 0.9;

/**
 * Drops the oldest messages until the estimate fits its share of `contextTokens`; the
 * history then starts at a user message, so no tool result loses its call.
 * Returns how many messages were dropped.
 */
export function fitToContext(history: Message[], contextTokens: number): number {
  const fit = Math.floor(contextTokens * HISTORY_SHARE);
  if (fit <= 0 || historyTokens(history) <= fit) return 0;
  const budget = fit * 4; // the estimate's bytes per token
  let bytes = 0;
  let keepFrom = history.length;
  for (let i = history.length - 1; i >= 0; i--) {
    bytes += historyBytes(history[i]);
    if (bytes > budget) break;
    keepFrom = i;
  }
  while (keepFrom < history.length && history[keepFrom].role !== "user") keepFrom++;
  history.splice(0, keepFrom);
  return keepFrom;
}
