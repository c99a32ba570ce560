// Compact one-line descriptions of tool calls and results: `bash(ls -la)`,
// `✓ 120ms`, `✗ 3ms: no such file`.
import type { ToolCallInfo, ToolResultEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { oneLine } from "../table.ts";

const ARGS_MAX = 60;
const OUTPUT_MAX = 80;

/** `name(args)`, where a single string argument is shown bare and anything else as compact JSON. */
export function describeCall(call: Pick<ToolCallInfo, "name" | "arguments">): string {
  // Its questions are shown in full right after; the arguments would only repeat them.
  if (call.name === "ask_user") return "ask_user";
  return `${call.name}(${oneLine(argsText(call.arguments), ARGS_MAX)})`;
}

function argsText(raw: string): string {
  if (!raw) return "";
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const values = Object.values(parsed);
      if (values.length === 0) return "";
      if (values.length === 1 && typeof values[0] === "string") return values[0];
    }
    return JSON.stringify(parsed);
  } catch {
    return raw;
  }
}

/** `✓ 120ms` or `✗ 120ms`, with the call id when the step had several calls and the output when asked. */
export function describeResult(result: ToolResultEvent, opts: { withId: boolean; withOutput: boolean }): string {
  const mark = result.isError ? "✗" : "✓";
  let line = `${mark} ${Number(result.durationMs)}ms`;
  if (opts.withId && result.callId) line += ` ${result.callId}`;
  if ((opts.withOutput || result.isError) && result.output.trim()) line += `: ${oneLine(result.output, OUTPUT_MAX)}`;
  return line;
}
