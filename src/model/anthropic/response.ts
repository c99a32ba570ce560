// Anthropic Messages answers (stream events and whole messages) → neutral
// StreamChunks / ModelResponse.
import type { Message, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { ModelResponse, StreamChunk, ToolCall, Usage } from "../types.ts";

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Anthropic's `input_tokens` exclude cache reads and writes; prompt tokens
 * here include them so they mean what OpenAI's `prompt_tokens` mean.
 */
export function toUsage(u: AnthropicUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? undefined;
  const prompt = (u.input_tokens ?? 0) + (cacheRead ?? 0) + (u.cache_creation_input_tokens ?? 0);
  const completion = u.output_tokens ?? 0;
  const usage: Usage = { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
  if (cacheRead !== undefined) usage.cacheHitTokens = cacheRead;
  if (u.cache_creation_input_tokens) usage.cacheWriteTokens = u.cache_creation_input_tokens;
  const thinking = u.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") usage.reasoningTokens = thinking;
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

/** Follows one message stream: block indexes → tool-call indexes, usage across events. */
export class AnthropicStreamState {
  /** Content-block index → position among the message's tool calls. */
  private readonly toolIndex = new Map<number, number>();
  private usage: AnthropicUsage = {};
  /** Set once `message_stop` arrived: the answer is complete. */
  stopped = false;

  push(event: RawMessageStreamEvent): StreamChunk[] {
    switch (event.type) {
      case "message_start":
        this.usage = { ...event.message.usage };
        return [];
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "tool_use") {
          const index = this.toolIndex.size;
          this.toolIndex.set(event.index, index);
          return [{ type: "tool_call", index, id: block.id, name: block.name }];
        }
        if (block.type === "text" && block.text) return [{ type: "text", text: block.text }];
        if (block.type === "thinking" && block.thinking) return [{ type: "thinking", text: block.thinking }];
        return [];
      }
      case "content_block_delta": {
        const delta = event.delta;
        switch (delta.type) {
          case "text_delta":
            return delta.text ? [{ type: "text", text: delta.text }] : [];
          case "thinking_delta":
            return delta.thinking ? [{ type: "thinking", text: delta.thinking }] : [];
          case "signature_delta":
            return [{ type: "thinking", text: "", signature: delta.signature }];
          case "input_json_delta": {
            const index = this.toolIndex.get(event.index);
            if (index === undefined || !delta.partial_json) return [];
            return [{ type: "tool_call", index, arguments: delta.partial_json }];
          }
          default:
            return [];
        }
      }
      case "message_delta": {
        // message_delta counts are cumulative; absent ones keep message_start's.
        const u = event.usage;
        for (const key of Object.keys(u) as (keyof typeof u)[]) {
          if (u[key] !== null && u[key] !== undefined) (this.usage as Record<string, unknown>)[key] = u[key];
        }
        const out: StreamChunk[] = [{ type: "usage", usage: toUsage(this.usage) }];
        if (event.delta.stop_reason) out.push({ type: "finish", reason: toFinishReason(event.delta.stop_reason) });
        return out;
      }
      case "message_stop":
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }
}

export function fromMessage(message: Message): ModelResponse {
  let content = "";
  let reasoning = "";
  let signature: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === "text") content += block.text;
    else if (block.type === "thinking") {
      reasoning += block.thinking;
      signature = block.signature || signature;
    } else if (block.type === "tool_use") {
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    }
  }
  const response: ModelResponse = { content, toolCalls, usage: toUsage(message.usage) };
  if (reasoning) response.reasoning = reasoning;
  if (signature) response.reasoningSignature = signature;
  if (message.stop_reason) response.finishReason = toFinishReason(message.stop_reason);
  return response;
}
