// Neutral request → the body of a Gemini generateContent request
// (docs/agent-loop.md#model-request, docs/providers.md#thinking), field for
// field and in the order the `@google/genai` SDK sent it
// (test/model/gemini-wire.test.ts holds it to the SDK).
import { GEMINI_SIGNATURE_PREFIX, parseToolArguments } from "../tool-args.ts";
import { alternatingTurns } from "../turns.ts";
import type { AssistantMessage, ModelRequest, ToolSchema } from "../types.ts";
import type { Content, FunctionDeclaration, GenerateContentBody, GenerationConfig, Part } from "./wire.ts";

export function toGeminiRequest(request: ModelRequest): GenerateContentBody {
  // Gemini wants alternating turns: function responses and the user text after them form one.
  const { system, turns } = alternatingTurns<Part>(request, {
    user: (text) => [{ text }],
    tool: (m) => [{ functionResponse: { id: m.toolCallId, name: m.name ?? "", response: { output: m.content } } }],
    assistant: modelParts,
  });
  const contents: Content[] = turns.map((t) => ({ parts: t.blocks, role: t.side }));
  const body: GenerateContentBody = { contents, generationConfig: generationConfig(request) };
  if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join("\n\n") }], role: "user" };
  if (request.tools && request.tools.length > 0) body.tools = [{ functionDeclarations: request.tools.map(toDeclaration) }];
  return body;
}

/** The body as sent: the fields in the SDK's order, `continuationToken` when resuming a checkpoint. */
export function geminiRequestJson(body: GenerateContentBody, continuationToken?: string): string {
  const { contents, systemInstruction, tools, generationConfig } = body;
  return JSON.stringify({ contents, systemInstruction, tools, continuationToken, generationConfig });
}

function generationConfig(request: ModelRequest): GenerationConfig {
  // Set by a budget (docs/usage.md); Gemini counts reasoning in its own tally, so it gets a share of the limit too.
  if (request.maxTokens !== undefined) {
    const config: GenerationConfig = { maxOutputTokens: request.maxTokens };
    if (request.thinking) config.thinkingConfig = { includeThoughts: true, thinkingBudget: Math.floor(request.maxTokens / 2) };
    return config;
  }
  return request.thinking ? { thinkingConfig: { includeThoughts: true } } : {};
}

function modelParts(m: AssistantMessage): Part[] {
  const parts: Part[] = [];
  if (m.content) parts.push({ text: m.content });
  const signature = m.reasoningSignature?.startsWith(GEMINI_SIGNATURE_PREFIX) ? m.reasoningSignature.slice(GEMINI_SIGNATURE_PREFIX.length) : undefined;
  (m.toolCalls ?? []).forEach((call, i) => {
    const part: Part = { functionCall: { args: parseToolArguments(call.arguments), id: call.id, name: call.name } };
    // Gemini attaches the step's thought signature to its first function call and wants it back there.
    if (i === 0 && signature) part.thoughtSignature = signature;
    parts.push(part);
  });
  return parts;
}

function toDeclaration(t: ToolSchema): FunctionDeclaration {
  return { name: t.name, description: t.description, parametersJsonSchema: t.parameters };
}
