// Chat Completions answers (streamed chunks and whole completions) → neutral
// StreamChunks / ModelResponse. OpenAI-compatible servers add fields the SDK
// does not type (DeepSeek's `reasoning_content`, Ollama's `reasoning`,
// DeepSeek's cache counters), so those are read defensively.
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { StreamChunk, ToolCall, ModelResponse, Usage } from "../types.ts";

function field(obj: unknown, key: string): unknown {
  return typeof obj === "object" && obj !== null ? (obj as Record<string, unknown>)[key] : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Reasoning text of a delta or message, under either name servers use. */
function reasoningOf(obj: unknown): string | undefined {
  return str(field(obj, "reasoning_content")) || str(field(obj, "reasoning")) || undefined;
}

export function toUsage(u: CompletionUsage): Usage {
  const usage: Usage = {
    promptTokens: u.prompt_tokens ?? 0,
    completionTokens: u.completion_tokens ?? 0,
    totalTokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0),
  };
  const cacheHit = num(u.prompt_tokens_details?.cached_tokens) ?? num(field(u, "prompt_cache_hit_tokens"));
  const cacheMiss = num(field(u, "prompt_cache_miss_tokens"));
  const reasoning = num(u.completion_tokens_details?.reasoning_tokens);
  if (cacheHit !== undefined) usage.cacheHitTokens = cacheHit;
  if (cacheMiss !== undefined) usage.cacheMissTokens = cacheMiss;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/** The neutral chunks of one streamed chunk, reasoning before text before tool calls. */
export function fromChatChunk(chunk: ChatCompletionChunk): StreamChunk[] {
  const out: StreamChunk[] = [];
  const choice = chunk.choices?.[0];
  if (choice) {
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) out.push({ type: "thinking", text: reasoning });
    if (delta.content) out.push({ type: "text", text: delta.content });
    for (const tc of delta.tool_calls ?? []) {
      const piece: StreamChunk = { type: "tool_call", index: tc.index };
      if (tc.id) piece.id = tc.id;
      if (tc.function?.name) piece.name = tc.function.name;
      if (tc.function?.arguments) piece.arguments = tc.function.arguments;
      out.push(piece);
    }
    if (choice.finish_reason) out.push({ type: "finish", reason: choice.finish_reason });
  }
  if (chunk.usage) out.push({ type: "usage", usage: toUsage(chunk.usage) });
  return out;
}

export function fromChatCompletion(completion: ChatCompletion): ModelResponse {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const toolCalls: ToolCall[] = [];
  for (const tc of message?.tool_calls ?? []) {
    if (tc.type === "function") {
      toolCalls.push({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments ?? "" });
    }
  }
  const response: ModelResponse = { content: message?.content ?? "", toolCalls };
  const reasoning = reasoningOf(message);
  if (reasoning) response.reasoning = reasoning;
  if (completion.usage) response.usage = toUsage(completion.usage);
  if (choice?.finish_reason) response.finishReason = choice.finish_reason;
  return response;
}
