// Gemini generateContent answers (streamed chunks and whole responses) →
// neutral StreamChunks / ModelResponse.
import type { GenerateContentResponse, Part, UsageMetadata } from "./wire.ts";
import { GEMINI_SIGNATURE_PREFIX } from "../tool-args.ts";
import type { ModelResponse, StreamChunk, ToolCall, Usage } from "../types.ts";

/** Thoughts count as completion tokens, as OpenAI counts reasoning tokens. */
export function toUsage(u: UsageMetadata): Usage {
  const prompt = u.promptTokenCount ?? 0;
  const thoughts = u.thoughtsTokenCount;
  const completion = (u.candidatesTokenCount ?? 0) + (thoughts ?? 0);
  const usage: Usage = { promptTokens: prompt, completionTokens: completion, totalTokens: u.totalTokenCount ?? prompt + completion };
  if (u.cachedContentTokenCount !== undefined) usage.cacheHitTokens = u.cachedContentTokenCount;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  return usage;
}

/** Finish reasons in the OpenAI vocabulary the rest of crabtalk reads. */
export function toFinishReason(reason: string, calledTools: boolean): string {
  if (calledTools) return "tool_calls";
  switch (reason) {
    case "STOP":
      return "stop";
    case "MAX_TOKENS":
      return "length";
    default:
      return reason.toLowerCase();
  }
}

/**
 * Gemini's public API sends function calls without ids; results must pair
 * with their calls, so a call without one gets an id here, fixed from then on
 * (it is stored with the call and sent back with the call and its result).
 */
function callId(given: string | undefined): string {
  return given || `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/** Follows one streamed answer: tool-call numbering, whether it finished. */
export class GeminiStreamState {
  private calls = 0;
  /** Set once a chunk carried a finish reason: the answer is complete. */
  finished = false;

  push(chunk: GenerateContentResponse): StreamChunk[] {
    const out: StreamChunk[] = [];
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) out.push(...this.part(part));
    if (chunk.usageMetadata) out.push({ type: "usage", usage: toUsage(chunk.usageMetadata) });
    if (candidate?.finishReason) {
      this.finished = true;
      out.push({ type: "finish", reason: toFinishReason(candidate.finishReason, this.calls > 0) });
    }
    return out;
  }

  private part(part: Part): StreamChunk[] {
    const out: StreamChunk[] = [];
    if (part.functionCall) {
      const call = part.functionCall;
      out.push({
        type: "tool_call",
        index: this.calls++,
        id: callId(call.id),
        name: call.name ?? "",
        arguments: JSON.stringify(call.args ?? {}),
      });
    } else if (part.text) {
      out.push(part.thought ? { type: "thinking", text: part.text } : { type: "text", text: part.text });
    }
    // The signature Gemini needs back is the one on a step's function call.
    if (part.functionCall && part.thoughtSignature) {
      out.push({ type: "thinking", text: "", signature: GEMINI_SIGNATURE_PREFIX + part.thoughtSignature });
    }
    return out;
  }
}

export function fromGenerateContent(response: GenerateContentResponse): ModelResponse {
  let content = "";
  let reasoning = "";
  let signature: string | undefined;
  const toolCalls: ToolCall[] = [];
  const candidate = response.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) {
    if (part.functionCall) {
      const call = part.functionCall;
      toolCalls.push({ id: callId(call.id), name: call.name ?? "", arguments: JSON.stringify(call.args ?? {}) });
    } else if (part.text) {
      if (part.thought) reasoning += part.text;
      else content += part.text;
    }
    if (part.functionCall && part.thoughtSignature) signature ??= GEMINI_SIGNATURE_PREFIX + part.thoughtSignature;
  }
  const out: ModelResponse = { content, toolCalls };
  if (reasoning) out.reasoning = reasoning;
  if (signature) out.reasoningSignature = signature;
  if (response.usageMetadata) out.usage = toUsage(response.usageMetadata);
  if (candidate?.finishReason) out.finishReason = toFinishReason(candidate.finishReason, toolCalls.length > 0);
  return out;
}
