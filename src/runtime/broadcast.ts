// The on-event hook that feeds event subscribers (docs/protocol.md#event-subscription): one
// labelled record per runtime event, tagged with agent and session.
import type { AgentEvent } from "../agent/events.ts";
import type { TurnOutcome } from "./run.ts";
import type { RuntimeHook } from "./hooks.ts";
import { cutUtf8 } from "./utf8.ts";

export type BroadcastKind = "text_delta" | "thinking_delta" | "tool_start" | "tool_result" | "tools_complete" | "done" | "budget_warning";

export interface BroadcastEvent {
  agent: string;
  session: bigint;
  kind: BroadcastKind;
  content: string;
  toolCalls?: { name: string; arguments: string; id: string }[];
  toolOutput?: string;
  toolIsError?: boolean;
}

export const TOOL_OUTPUT_LIMIT = 2048;

export function broadcastHook(publish: (e: BroadcastEvent) => void): RuntimeHook {
  return {
    onEvent(event, scene) {
      const e = describe(event);
      if (e) publish({ agent: scene.agent.name, session: scene.session, ...e });
    },
  };
}

function describe(event: AgentEvent): Omit<BroadcastEvent, "agent" | "session"> | undefined {
  switch (event.type) {
    case "text":
      return { kind: "text_delta", content: event.text };
    case "thinking":
      return { kind: "thinking_delta", content: event.text };
    case "tool_start":
      return {
        kind: "tool_start",
        content: event.calls.map(callLabel).join(", "),
        toolCalls: event.calls.map((c) => ({ name: c.name, arguments: c.arguments, id: c.id })),
      };
    case "tool_result":
      return {
        kind: "tool_result",
        content: `${event.durationMs}ms`,
        toolOutput: truncateUtf8(event.output, TOOL_OUTPUT_LIMIT),
        toolIsError: event.isError,
      };
    case "tools_complete":
      return { kind: "tools_complete", content: "" };
    case "done":
      return { kind: "done", content: usageSummary(event.result as TurnOutcome) };
    case "tool_names":
    case "compacted":
    case "step_usage":
      return undefined; // neither the early names-only notification nor summaries are broadcast
  }
}

/** `bash(<first line of its command>)` for bash, the tool name otherwise. */
export function callLabel(call: { name: string; arguments: string }): string {
  if (call.name !== "bash") return call.name;
  try {
    const command = (JSON.parse(call.arguments) as { command?: unknown }).command;
    if (typeof command === "string") return `bash(${command.split("\n")[0]})`;
  } catch {
    // fall through to the bare name
  }
  return "bash";
}

/** `<model> <in> in / <out> out`, with `(<cached> cached)` when cache hits were reported. */
export function usageSummary(o: Pick<TurnOutcome, "model" | "usage" | "iterations">): string {
  if (o.iterations === 0) return "";
  const u = o.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const cached = u.cacheHitTokens ? ` (${compact(u.cacheHitTokens)} cached)` : "";
  return `${o.model} ${compact(u.promptTokens)} in${cached} / ${compact(u.completionTokens)} out`;
}

export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Cuts to at most `limit` bytes at a UTF-8 boundary, marking the cut (docs/protocol.md#event-subscription). */
export function truncateUtf8(text: string, limit: number): string {
  return cutUtf8(text, limit, "…[truncated]");
}
