// Agent events → protocol frames (docs/agent-loop.md#events-and-stream-frames).
import type { Usage } from "../model/types.ts";
import type { Reply } from "../protocol/codec.ts";
import type { TurnEvent, TurnOutcome } from "../runtime/run.ts";

/** Usage as sent on the wire: always present, zeros when no round reported any. */
export function tokenUsage(u: Usage | undefined): Usage {
  if (!u) return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const { cacheWriteTokens: _notOnTheWire, ...wire } = u;
  return wire;
}

export function outcomeError(o: TurnOutcome): string {
  return o.stopReason === "error" || o.stopReason === "aborted" ? (o.error ?? "run failed") : "";
}

/** The StreamEvent frame for one event of `agent`'s run; compaction summaries have none (docs/protocol.md#stream-runs). */
export function streamFrame(agent: string, e: TurnEvent): Reply | undefined {
  const wrap = (event: Extract<Reply, { case: "stream" }>["value"]["event"]): Reply => ({ case: "stream", value: { event } });
  switch (e.type) {
    case "text":
      return wrap({ case: "chunk", value: { content: e.text } });
    case "thinking":
      return wrap({ case: "thinking", value: { content: e.text } });
    case "tool_names":
      return wrap({ case: "toolStart", value: { calls: e.names.map((name) => ({ name, arguments: "" })) } });
    case "tool_start":
      return wrap({ case: "toolStart", value: { calls: e.calls.map((c) => ({ name: c.name, arguments: c.arguments, id: c.id })) } });
    case "tool_result":
      return wrap({
        case: "toolResult",
        value: { callId: e.callId, output: e.output, durationMs: BigInt(e.durationMs), isError: e.isError },
      });
    case "tools_complete":
      return wrap({ case: "toolsComplete", value: {} });
    case "compacted":
    case "step_usage":
      return undefined;
    case "ask_user":
      return wrap({
        case: "askUser",
        value: {
          questions: e.questions.map((q) => ({ question: q.question, header: q.header, options: q.options, multiSelect: q.multi_select })),
        },
      });
    case "done": {
      const o = e.result as TurnOutcome;
      return wrap({
        case: "end",
        value: {
          agent,
          error: outcomeError(o),
          provider: o.provider ?? "",
          model: o.model ?? "",
          usage: tokenUsage(o.usage),
          costUsd: o.costUsd,
          interrupted: o.stopReason === "aborted",
        },
      });
    }
  }
}
