// The neutral model vocabulary: conversation messages, requests, streamed
// chunks and responses. Provider adapters convert to and from these; the agent
// loop and the session store speak only these.

export interface ToolCall {
  id: string;
  name: string;
  /** The JSON argument string exactly as the model produced it. */
  arguments: string;
}

interface SystemMessage {
  role: "system";
  content: string;
}

export interface UserMessage {
  role: "user";
  content: string;
  /** Client identity of the sender (never persisted). */
  sender?: string;
  /** Auto-injected context: never persisted, replaced before every run. */
  injected?: boolean;
}

export interface AssistantMessage {
  role: "assistant";
  content: string;
  reasoning?: string;
  /**
   * Provider signature of `reasoning` (Anthropic thinking blocks). Without it
   * the reasoning cannot be sent back to Anthropic and is dropped there.
   */
  reasoningSignature?: string;
  toolCalls?: ToolCall[];
  /**
   * Set on what was kept of an answer that never completed: "error" (the
   * provider failed mid-answer) or "interrupted" (the run was cancelled, killed
   * or timed out). Such an answer has no tool calls.
   */
  partial?: PartialReason;
}

export type PartialReason = "error" | "interrupted";

export interface ToolMessage {
  role: "tool";
  content: string;
  toolCallId: string;
  /** Tool name. */
  name?: string;
  /** The result is a failure (`is_error` in the session file); providers do not send it. */
  isError?: boolean;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A tool offered to the model: JSON Schema parameters (`type: "object"`). */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  /** System prompt; sent as the provider's system slot when non-empty. */
  system?: string;
  messages: Message[];
  /** Omitted or empty: no tools are offered. Tool choice is `auto` otherwise. */
  tools?: readonly ToolSchema[];
  /** Ask the provider for reasoning (docs/providers.md#thinking). */
  thinking?: boolean;
  /**
   * The most tokens the answer may have, reasoning included (set when a
   * budget is in force, docs/usage.md); undefined: the provider's default.
   */
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cacheHitTokens?: number;
  cacheMissTokens?: number;
  /** Prompt tokens written to the provider's cache (Anthropic); priced apart, not on the wire. */
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

/** One piece of a streamed answer, in the order the provider produced it. */
export type StreamChunk =
  | { type: "text"; text: string }
  /** `signature` (Anthropic) arrives once, at the end of a thinking block, with empty `text`. */
  | { type: "thinking"; text: string; signature?: string }
  /** A fragment of tool call `index`: id/name replace when non-empty, arguments concatenate. */
  | { type: "tool_call"; index: number; id?: string; name?: string; arguments?: string }
  | { type: "usage"; usage: Usage }
  | { type: "finish"; reason: string };

export interface ModelResponse {
  content: string;
  reasoning?: string;
  reasoningSignature?: string;
  toolCalls: ToolCall[];
  usage?: Usage;
  finishReason?: string;
}

/** What the agent loop and compaction need of a model. */
export interface Model {
  /** Non-streaming call (compaction, titles), with retries of transient failures. */
  complete(request: ModelRequest): Promise<ModelResponse>;
  /** Streaming call (every round of the agent loop). */
  stream(request: ModelRequest): AsyncIterable<StreamChunk>;
}
