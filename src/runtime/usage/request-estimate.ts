// A request's input tokens before it is sent (docs/usage.md "Budgets"): the
// compaction estimate (UTF-8 bytes / 4) of the history, plus
// the system prompt and the tool schemas, which are billed as input too.
import type { Message, ToolSchema } from "../../model/types.ts";
import { historyTokens } from "../working-history.ts";

/** Bytes of each offered tool list as JSON (an agent's list is the same array on every request). */
const toolBytes = new WeakMap<readonly ToolSchema[], number>();

function schemaBytes(tools: readonly ToolSchema[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  let bytes = toolBytes.get(tools);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(tools), "utf8");
    toolBytes.set(tools, bytes);
  }
  return bytes;
}

export function inputTokenEstimate(request: { system?: string; messages: readonly Message[]; tools?: readonly ToolSchema[] }): number {
  const extra = Buffer.byteLength(request.system ?? "", "utf8") + schemaBytes(request.tools);
  return historyTokens(request.messages) + Math.ceil(extra / 4);
}
