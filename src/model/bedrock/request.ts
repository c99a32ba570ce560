// Neutral request → Bedrock Converse / ConverseStream input (docs/agent-loop.md#model-request, docs/providers.md#thinking).
import type { ContentBlock, ConverseRequest, Message as BedrockMessage, Tool } from "@aws-sdk/client-bedrock-runtime";
import { defaultMaxTokens, thinkingBudgetWithin } from "../output-limit.ts";
import { GEMINI_SIGNATURE_PREFIX, parseToolArguments } from "../tool-args.ts";
import type { AssistantMessage, ModelRequest, ToolSchema } from "../types.ts";

type BedrockRequest = Omit<ConverseRequest, "messages"> & { messages: BedrockMessage[] };

export function toConverseRequest(request: ModelRequest): BedrockRequest {
  const system: string[] = request.system ? [request.system] : [];
  const messages: BedrockMessage[] = [];
  const add = (role: "user" | "assistant", blocks: ContentBlock[]): void => {
    if (blocks.length === 0) return; // Converse rejects empty turns and empty text blocks
    const last = messages[messages.length - 1];
    // Turns alternate: tool results and the user text after them form one user turn.
    if (last && last.role === role) last.content?.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const m of request.messages) {
    switch (m.role) {
      case "system":
        if (m.content) system.push(m.content);
        break;
      case "user":
        add("user", m.content ? [{ text: m.content }] : []);
        break;
      case "tool":
        add("user", [{ toolResult: { toolUseId: m.toolCallId, content: [{ text: m.content || "(no output)" }] } }]);
        break;
      case "assistant":
        add("assistant", assistantBlocks(m));
        break;
    }
  }
  const body: BedrockRequest = {
    modelId: request.model,
    messages,
    inferenceConfig: { maxTokens: request.maxTokens ?? defaultMaxTokens(false) },
  };
  if (system.length > 0) body.system = [{ text: system.join("\n\n") }];
  if (request.tools && request.tools.length > 0) {
    body.toolConfig = { tools: request.tools.map(toTool), toolChoice: { auto: {} } };
  }
  // Reasoning on Bedrock is a model-specific request field; Claude models take Anthropic's.
  if (request.thinking && /claude|anthropic/i.test(request.model)) {
    const maxTokens = request.maxTokens ?? defaultMaxTokens(true);
    const budget = thinkingBudgetWithin(maxTokens);
    if (budget !== undefined) {
      body.additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: budget } };
      body.inferenceConfig = { maxTokens };
    }
  }
  return body;
}

function assistantBlocks(m: AssistantMessage): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const signature = m.reasoningSignature;
  if (m.reasoning && signature && !signature.startsWith(GEMINI_SIGNATURE_PREFIX)) {
    blocks.push({ reasoningContent: { reasoningText: { text: m.reasoning, signature } } });
  }
  if (m.content) blocks.push({ text: m.content });
  for (const call of m.toolCalls ?? []) {
    blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: parseToolArguments(call.arguments) as never } });
  }
  return blocks;
}

function toTool(t: ToolSchema): Tool {
  return { toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as never } } };
}
