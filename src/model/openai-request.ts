// Neutral request → Chat Completions request body (daemon.md §8.1, §4.6).
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { Message, ModelRequest, ToolSchema } from "./types.ts";

export type ChatRequestBody = Omit<ChatCompletionCreateParamsBase, "stream" | "stream_options">;

export function toChatRequest(request: ModelRequest): ChatRequestBody {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  for (const m of request.messages) messages.push(toChatMessage(m));
  const body: ChatRequestBody = { model: request.model, messages };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toChatTool);
    body.tool_choice = "auto";
  }
  if (request.thinking) body.reasoning_effort = "high";
  return body;
}

/**
 * Empty content goes out as `null` for assistant messages and `""` for the
 * rest (§8.1). Runs once per message of the history on every request: one
 * object per message, no spreads.
 */
function toChatMessage(m: Message): ChatCompletionMessageParam {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content };
    case "user":
      return { role: "user", content: m.content };
    case "tool":
      return { role: "tool", content: m.content, tool_call_id: m.toolCallId };
    case "assistant": {
      const content = m.content === "" ? null : m.content;
      const calls = m.toolCalls;
      if (calls === undefined || calls.length === 0) return { role: "assistant", content };
      return {
        role: "assistant",
        content,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })),
      };
    }
  }
}

function toChatTool(t: ToolSchema): ChatCompletionFunctionTool {
  return { type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } };
}
