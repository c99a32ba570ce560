// The parts of the Gemini API's JSON (generateContent and
// streamGenerateContent, https://ai.google.dev/api/generate-content) that
// crabtalk sends and reads. Written here so the adapter needs no SDK.

export interface FunctionCall {
  args?: Record<string, unknown>;
  id?: string;
  name?: string;
}

export interface Part {
  functionCall?: FunctionCall;
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  text?: string;
  /** The text is the model's thinking. */
  thought?: boolean;
  thoughtSignature?: string;
}

export interface Content {
  parts: Part[];
  role: "user" | "model";
}

export interface FunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: unknown;
}

export interface GenerationConfig {
  maxOutputTokens?: number;
  thinkingConfig?: { includeThoughts: boolean; thinkingBudget?: number };
}

/** The body of a generateContent or streamGenerateContent request. */
export interface GenerateContentBody {
  contents: Content[];
  systemInstruction?: Content;
  tools?: { functionDeclarations: FunctionDeclaration[] }[];
  /** Resumes an answer the previous request left at a checkpoint (continuation.ts). */
  continuationToken?: string;
  generationConfig: GenerationConfig;
}

export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  totalTokenCount?: number;
}

export interface Candidate {
  content?: { parts?: Part[]; role?: string };
  finishReason?: string;
  /** A checkpoint: the answer can be resumed from here (continuation.ts). */
  continuationToken?: string;
}

/** A whole answer, or one streamed chunk of one. */
export interface GenerateContentResponse {
  candidates?: Candidate[];
  promptFeedback?: unknown;
  usageMetadata?: UsageMetadata;
}
