// Bedrock Converse answers (ConverseStream events and whole Converse
// responses) → neutral StreamChunks / ModelResponse.
import type { ConverseResponse, ConverseStreamOutput, TokenUsage } from "./wire.ts";
import type { ModelResponse, StreamChunk, ToolCall, Usage } from "../types.ts";

/** Bedrock's inputTokens leave out cache reads and writes; the prompt counts them all. */
export function toUsage(u: TokenUsage): Usage {
  const cacheRead = u.cacheReadInputTokens;
  const prompt = (u.inputTokens ?? 0) + (cacheRead ?? 0) + (u.cacheWriteInputTokens ?? 0);
  const completion = u.outputTokens ?? 0;
  const usage: Usage = { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
  if (cacheRead !== undefined) usage.cacheHitTokens = cacheRead;
  if (u.cacheWriteInputTokens !== undefined) usage.cacheMissTokens = u.cacheWriteInputTokens;
  return usage;
}

/** Stop reasons in the OpenAI vocabulary the rest of crabtalk reads. */
export function toFinishReason(stop: string): string {
  switch (stop) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
      return "length";
    default:
      return stop;
  }
}

/** Follows one ConverseStream: block indexes → tool-call indexes, whether it ended. */
export class BedrockStreamState {
  private readonly toolIndex = new Map<number, number>();
  /** Set once messageStop arrived. */
  stopped = false;

  push(event: ConverseStreamOutput): StreamChunk[] {
    if (event.contentBlockStart) {
      const { contentBlockIndex = 0, start } = event.contentBlockStart;
      if (!start?.toolUse) return [];
      const index = this.toolIndex.size;
      this.toolIndex.set(contentBlockIndex, index);
      return [{ type: "tool_call", index, id: start.toolUse.toolUseId ?? "", name: start.toolUse.name ?? "" }];
    }
    if (event.contentBlockDelta) {
      const { contentBlockIndex = 0, delta } = event.contentBlockDelta;
      if (delta?.text) return [{ type: "text", text: delta.text }];
      if (delta?.toolUse?.input) {
        const index = this.toolIndex.get(contentBlockIndex);
        return index === undefined ? [] : [{ type: "tool_call", index, arguments: delta.toolUse.input }];
      }
      const reasoning = delta?.reasoningContent;
      if (reasoning?.text) return [{ type: "thinking", text: reasoning.text }];
      if (reasoning?.signature) return [{ type: "thinking", text: "", signature: reasoning.signature }];
      return [];
    }
    if (event.messageStop) {
      this.stopped = true;
      return [{ type: "finish", reason: toFinishReason(event.messageStop.stopReason ?? "end_turn") }];
    }
    if (event.metadata?.usage) return [{ type: "usage", usage: toUsage(event.metadata.usage) }];
    return [];
  }
}

export function fromConverse(response: ConverseResponse): ModelResponse {
  let content = "";
  let reasoning = "";
  let signature: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const block of response.output?.message?.content ?? []) {
    if (block.text) content += block.text;
    else if (block.toolUse) {
      toolCalls.push({ id: block.toolUse.toolUseId ?? "", name: block.toolUse.name ?? "", arguments: JSON.stringify(block.toolUse.input ?? {}) });
    } else if (block.reasoningContent?.reasoningText) {
      reasoning += block.reasoningContent.reasoningText.text ?? "";
      signature = block.reasoningContent.reasoningText.signature || signature;
    }
  }
  const out: ModelResponse = { content, toolCalls };
  if (reasoning) out.reasoning = reasoning;
  if (signature) out.reasoningSignature = signature;
  if (response.usage) out.usage = toUsage(response.usage);
  if (response.stopReason) out.finishReason = toFinishReason(response.stopReason);
  return out;
}
