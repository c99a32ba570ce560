// Neutral request → the body of a Bedrock Converse / ConverseStream request
// (docs/agent-loop.md#model-request, docs/providers.md#thinking), field for
// field and in the order the AWS SDK sent it (test/model/bedrock-wire.test.ts
// holds it to the SDK).
import { defaultMaxTokens, thinkingBudgetWithin } from "../output-limit.ts";
import { GEMINI_SIGNATURE_PREFIX, parseToolArguments } from "../tool-args.ts";
import { alternatingTurns } from "../turns.ts";
import type { AssistantMessage, ModelRequest, ToolSchema } from "../types.ts";
import type { BedrockMessage, ContentBlock, ConverseBody, ToolSpec } from "./wire.ts";

export function toConverseRequest(request: ModelRequest): ConverseBody {
  // Converse rejects empty turns and empty text blocks; tool results and the user text after them form one user turn.
  const { system, turns } = alternatingTurns<ContentBlock>(request, {
    user: (text) => [{ text }],
    tool: (m) => [{ toolResult: { toolUseId: m.toolCallId, content: [{ text: m.content || "(no output)" }] } }],
    assistant: assistantBlocks,
  });
  const messages: BedrockMessage[] = turns.map((t) => ({ role: t.side === "model" ? "assistant" : "user", content: t.blocks }));
  let maxTokens = request.maxTokens ?? defaultMaxTokens(false);
  let additionalModelRequestFields: ConverseBody["additionalModelRequestFields"];
  // Reasoning on Bedrock is a model-specific request field; Claude models take Anthropic's.
  if (request.thinking && /claude|anthropic/i.test(request.model)) {
    const withThinking = request.maxTokens ?? defaultMaxTokens(true);
    const budget = thinkingBudgetWithin(withThinking);
    if (budget !== undefined) {
      additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: budget } };
      maxTokens = withThinking;
    }
  }
  return {
    messages,
    system: system.length > 0 ? [{ text: system.join("\n\n") }] : undefined,
    inferenceConfig: { maxTokens },
    toolConfig: request.tools && request.tools.length > 0 ? { tools: request.tools.map(toTool), toolChoice: { auto: {} } } : undefined,
    additionalModelRequestFields,
  };
}

function assistantBlocks(m: AssistantMessage): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const signature = m.reasoningSignature;
  if (m.reasoning && signature && !signature.startsWith(GEMINI_SIGNATURE_PREFIX)) {
    blocks.push({ reasoningContent: { reasoningText: { text: m.reasoning, signature } } });
  }
  if (m.content) blocks.push({ text: m.content });
  for (const call of m.toolCalls ?? []) {
    blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: parseToolArguments(call.arguments) } });
  }
  return blocks;
}

function toTool(t: ToolSchema): ToolSpec {
  return { toolSpec: { name: t.name, inputSchema: { json: t.parameters }, description: t.description } };
}
