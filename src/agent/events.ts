// What an agent run reports, step by step (docs/agent-loop.md). The daemon
// maps these to stream frames; the agent knows nothing of the wire.
import type { ToolCall, Usage } from "../model/types.ts";

export type StopReason = "text_response" | "no_action" | "max_iterations" | "error" | "aborted";

export interface ToolOutcome {
  output: string;
  isError: boolean;
}

export type AgentEvent =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  /** Early, names-only notification: at most once per step. */
  | { type: "tool_names"; names: string[] }
  | { type: "tool_start"; calls: ToolCall[] }
  | { type: "tool_result"; callId: string; name: string; output: string; durationMs: number; isError: boolean }
  | { type: "tools_complete" }
  /** What one model round reported (usage accounting); never forwarded to clients. */
  | { type: "step_usage"; usage: Usage }
  /** The history was replaced by a summary (docs/agent-loop.md#after-a-compaction); never forwarded to clients. */
  | { type: "compacted"; summary: string }
  | { type: "done"; result: RunResult };

export interface RunResult {
  stopReason: StopReason;
  /** Final assistant text ("" if none). */
  finalText: string;
  /** Set when stopReason is "error" or "aborted". */
  error?: string;
  /** Summed over the run's model rounds; undefined when no round reported any. */
  usage?: Usage;
  iterations: number;
}
