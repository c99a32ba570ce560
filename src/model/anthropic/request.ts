// Neutral request → Anthropic Messages request body (docs/agent-loop.md#model-request, docs/providers.md#thinking).
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import { defaultMaxTokens, thinkingBudgetWithin } from "../output-limit.ts";
import { alternatingTurns, type Turn } from "../turns.ts";
import { GEMINI_SIGNATURE_PREFIX, parseToolArguments } from "../tool-args.ts";
import type { AssistantMessage, ModelRequest, ToolSchema } from "../types.ts";

type MessagesRequestBody = Omit<MessageCreateParamsBase, "stream">;

export function toMessagesRequest(request: ModelRequest): MessagesRequestBody {
  // Messages has one system slot: system messages in the history join it. Anthropic rejects empty turns and empty text blocks.
  const { system, turns } = alternatingTurns<ContentBlockParam>(request, {
    user: (text) => [{ type: "text", text }],
    tool: (m) => [{ type: "tool_result", tool_use_id: m.toolCallId, ...(m.content ? { content: m.content } : {}) }],
    assistant: assistantBlocks,
  });
  const body: MessagesRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens ?? defaultMaxTokens(false),
    messages: turns.map((t): MessageParam => ({ role: t.side === "model" ? "assistant" : "user", content: t.blocks })),
  };
  if (system.length > 0) body.system = system.join("\n\n");
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toTool);
    body.tool_choice = { type: "auto" };
  }
  if (request.thinking && thinkingAllowed(turns)) {
    // A limit set by a budget holds reasoning and answer together; too small a one goes without reasoning.
    const maxTokens = request.maxTokens ?? defaultMaxTokens(true);
    const budget = thinkingBudgetWithin(maxTokens);
    if (budget !== undefined) {
      body.thinking = { type: "enabled", budget_tokens: budget };
      body.max_tokens = maxTokens;
    }
  }
  return body;
}

/** Reasoning goes back only as a signed thinking block: Anthropic rejects unsigned ones. */
function assistantBlocks(m: AssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  if (m.reasoning && m.reasoningSignature && !m.reasoningSignature.startsWith(GEMINI_SIGNATURE_PREFIX)) {
    blocks.push({ type: "thinking", thinking: m.reasoning, signature: m.reasoningSignature });
  }
  if (m.content) blocks.push({ type: "text", text: m.content });
  for (const call of m.toolCalls ?? []) {
    blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parseToolArguments(call.arguments) });
  }
  return blocks;
}

/**
 * With thinking on, Anthropic requires the assistant turn whose tool calls are
 * being answered to start with a signed thinking block. If the history lost it
 * (a provider switch, or reasoning kept without its signature), this request
 * goes without thinking rather than failing.
 */
function thinkingAllowed(turns: Turn<ContentBlockParam>[]): boolean {
  const last = turns[turns.length - 1];
  const prev = turns[turns.length - 2];
  if (!last || !prev || last.side !== "user" || prev.side !== "model") return true;
  const answersTools = last.blocks.some((b) => b.type === "tool_result");
  if (!answersTools) return true;
  return prev.blocks[0]?.type === "thinking" || prev.blocks[0]?.type === "redacted_thinking";
}

function toTool(t: ToolSchema): Tool {
  return {
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.parameters } as Tool.InputSchema,
  };
}
