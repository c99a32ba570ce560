// The parts of Bedrock's Converse API JSON
// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html)
// that crabtalk sends and reads. Written here so the adapter needs no SDK.

export interface ContentBlock {
  text?: string;
  toolUse?: { toolUseId: string; name: string; input: unknown };
  toolResult?: { toolUseId: string; content: { text: string }[] };
  reasoningContent?: { reasoningText?: { text?: string; signature?: string } };
}

export interface BedrockMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
}

export interface ToolSpec {
  toolSpec: { name: string; inputSchema: { json: unknown }; description: string };
}

/** The body of a Converse or ConverseStream request (the model id goes in the URL). */
export interface ConverseBody {
  messages: BedrockMessage[];
  system?: { text: string }[];
  inferenceConfig: { maxTokens: number };
  toolConfig?: { tools: ToolSpec[]; toolChoice: { auto: Record<string, never> } };
  additionalModelRequestFields?: Record<string, unknown>;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

export interface ConverseResponse {
  output?: { message?: { role?: string; content?: ContentBlock[] } };
  stopReason?: string;
  usage?: TokenUsage;
}

/** One ConverseStream event: its `:event-type` as the key, its JSON payload as the value. */
export interface ConverseStreamOutput {
  messageStart?: { role?: string };
  contentBlockStart?: { contentBlockIndex?: number; start?: { toolUse?: { toolUseId?: string; name?: string } } };
  contentBlockDelta?: {
    contentBlockIndex?: number;
    delta?: { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string; signature?: string } };
  };
  contentBlockStop?: { contentBlockIndex?: number };
  messageStop?: { stopReason?: string };
  metadata?: { usage?: TokenUsage };
}
