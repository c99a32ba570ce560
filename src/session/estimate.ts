// Token estimates (docs/agent-loop.md#when-it-runs): UTF-8 bytes / 4, rounded down.
import type { Message } from "../model/types.ts";

const bytes = (text: string | undefined): number => (text ? Buffer.byteLength(text, "utf8") : 0);

/** The compaction trigger's estimate: bytes of content, reasoning and tool-call arguments of the whole history, / 4. */
export function historyTokenEstimate(history: readonly Message[]): number {
  let total = 0;
  for (const m of history) total += historyBytes(m);
  return Math.floor(total / 4);
}

/** What one message adds to historyTokenEstimate's byte count (before the / 4). */
export function historyBytes(m: Message): number {
  let total = bytes(m.content);
  if (m.role === "assistant") {
    total += bytes(m.reasoning);
    for (const call of m.toolCalls ?? []) total += bytes(call.arguments);
  }
  return total;
}

/** One message: bytes of content, reasoning, tool_call_id and each call's name and arguments, / 4, at least 1. */
export function messageTokenEstimate(message: Message): number {
  let total = bytes(message.content);
  if (message.role === "assistant") {
    total += bytes(message.reasoning);
    for (const call of message.toolCalls ?? []) total += bytes(call.name) + bytes(call.arguments);
  } else if (message.role === "tool") {
    total += bytes(message.toolCallId);
  }
  return Math.max(1, Math.floor(total / 4));
}

/** A list's estimate: the sum of its messages'. */
export function messagesTokenEstimate(messages: readonly Message[]): number {
  let total = 0;
  for (const m of messages) total += messageTokenEstimate(m);
  return total;
}
