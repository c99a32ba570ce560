// Compaction (docs/agent-loop.md#compaction): summarise a history with the agent's own model so
// the summary can stand in for it. Used after steps (auto-compaction) and by
// the Compact operation, which only returns the text.
import type { Message, Model, ModelRequest, Usage } from "../model/types.ts";
import type { AgentDefinition } from "./agent-settings.ts";
import { cutUtf8 } from "./utf8.ts";
import { modelNameFor, type Runtime } from "./runtime.ts";
import type { Session } from "./sessions.ts";
import { historyTokens } from "./working-history.ts";
import type { RuntimeLog } from "../base/runtime-log.ts";

export const COMPACTION_INSTRUCTIONS = `Summarise the conversation so far into one compact context block that will replace the full history.

Keep: the agent's identity (name, personality, relationship notes); the user's profile (name, preferences, context); key decisions and their reasons; active tasks and their status; important facts, constraints and preferences; tool results that still matter.

Drop: greetings and filler; superseded plans and abandoned approaches; tool calls whose results have already been absorbed.

Write dense prose, not bullet points. The summary must be self-contained: it becomes the new context, and nothing else of the conversation will remain.`;

/** The non-streaming, tool-free summarisation request of docs/agent-loop.md#the-summary-request. */
export function compactionRequest(
  model: string,
  agent: Pick<AgentDefinition, "systemPrompt" | "compactToolMaxLen">,
  history: readonly Message[],
): ModelRequest {
  const messages: Message[] = [];
  if (agent.systemPrompt) {
    messages.push({
      role: "user",
      content: `The agent's full system prompt follows. It is identity and profile material that the summary must preserve:\n\n${agent.systemPrompt}`,
    });
  }
  for (const m of history) {
    messages.push(m.role === "tool" ? { ...m, content: cutUtf8(m.content, agent.compactToolMaxLen, "... [truncated]") } : m);
  }
  return { model, system: COMPACTION_INSTRUCTIONS, messages };
}

/** The summary text; throws when the model fails or returns none. `onUsage` hears what the request used. */
export async function summarise(model: Model, request: ModelRequest, onUsage?: (usage: Usage) => Promise<void> | void): Promise<string> {
  const response = await model.complete(request);
  if (response.usage) await onUsage?.(response.usage);
  const summary = response.content.trim();
  if (!summary) throw new Error("the model returned no summary");
  return summary;
}

/** Share of the context window at which an agent without a compact_threshold compacts. */
export const AUTO_COMPACT_SHARE = 0.8;

/**
 * The estimated tokens that trigger auto-compaction: the agent's
 * compact_threshold, else 80 % of its model's context window; 0 = never.
 */
export function compactionThreshold(agent: Pick<AgentDefinition, "compactThreshold">, contextLimit: number): number {
  return agent.compactThreshold ?? Math.floor(contextLimit * AUTO_COMPACT_SHARE);
}

/**
 * docs/agent-loop.md#when-it-runs: the agent compacts when its threshold is on and the estimate exceeds
 * it (a running tally of the working history: only new messages are counted).
 */
export function compactionDue(agent: Pick<AgentDefinition, "compactThreshold">, history: readonly Message[], contextLimit: number): boolean {
  const threshold = compactionThreshold(agent, contextLimit);
  return threshold > 0 && historyTokens(history) > threshold;
}

export class CompactError extends Error {
  constructor(
    readonly reason: "empty" | "agent" | "failed",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The Compact operation (docs/agent-loop.md#the-compact-operation): the summary of a session's current
 * working history, changing nothing.
 */
export async function compactSession(runtime: Runtime, session: Session, log: RuntimeLog): Promise<string> {
  await session.ensureLoaded();
  if (session.history.length === 0) throw new CompactError("empty", `session ${session.id} has no history to compact`);
  const agent = runtime.agents.get(session.agent);
  if (!agent) throw new CompactError("agent", `agent '${session.agent}' not registered`);
  try {
    const modelName = modelNameFor(runtime, agent);
    if (!modelName) throw new Error(runtime.noModelHint);
    const { model } = runtime.models.resolve(modelName);
    return await summarise(model, compactionRequest(modelName, agent, [...session.history]));
  } catch (err) {
    log.warn(`compact of session ${session.id} failed: ${(err as Error).message}`);
    throw new CompactError("failed", `compact failed for session ${session.id}`);
  }
}
