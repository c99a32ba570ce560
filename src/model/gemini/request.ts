// Neutral request → Gemini generateContent parameters (docs/agent-loop.md#model-request, docs/providers.md#thinking).
import type { Content, FunctionDeclaration, GenerateContentConfig, Part } from "@google/genai";
import { GEMINI_SIGNATURE_PREFIX, parseToolArguments } from "../tool-args.ts";
import type { AssistantMessage, ModelRequest, ToolSchema } from "../types.ts";

interface GeminiRequest {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

export function toGeminiRequest(request: ModelRequest): GeminiRequest {
  const system: string[] = request.system ? [request.system] : [];
  const contents: Content[] = [];
  const add = (role: "user" | "model", parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    // Gemini wants alternating turns: function responses and the user text after them form one.
    if (last && last.role === role) last.parts?.push(...parts);
    else contents.push({ role, parts });
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
        add("user", [{ functionResponse: { id: m.toolCallId, name: m.name ?? "", response: { output: m.content } } }]);
        break;
      case "assistant":
        add("model", modelParts(m));
        break;
    }
  }
  const config: GenerateContentConfig = {};
  if (system.length > 0) config.systemInstruction = system.join("\n\n");
  if (request.tools && request.tools.length > 0) {
    config.tools = [{ functionDeclarations: request.tools.map(toDeclaration) }];
  }
  if (request.thinking) config.thinkingConfig = { includeThoughts: true };
  // Set by a budget (docs/usage.md); Gemini counts reasoning in its own tally, so it gets a share of the limit too.
  if (request.maxTokens !== undefined) {
    config.maxOutputTokens = request.maxTokens;
    if (request.thinking) config.thinkingConfig = { includeThoughts: true, thinkingBudget: Math.floor(request.maxTokens / 2) };
  }
  if (request.signal) config.abortSignal = request.signal;
  return { model: request.model, contents, config };
}

function modelParts(m: AssistantMessage): Part[] {
  const parts: Part[] = [];
  if (m.content) parts.push({ text: m.content });
  const signature = m.reasoningSignature?.startsWith(GEMINI_SIGNATURE_PREFIX) ? m.reasoningSignature.slice(GEMINI_SIGNATURE_PREFIX.length) : undefined;
  (m.toolCalls ?? []).forEach((call, i) => {
    const part: Part = { functionCall: { id: call.id, name: call.name, args: parseToolArguments(call.arguments) } };
    // Gemini attaches the step's thought signature to its first function call and wants it back there.
    if (i === 0 && signature) part.thoughtSignature = signature;
    parts.push(part);
  });
  return parts;
}

function toDeclaration(t: ToolSchema): FunctionDeclaration {
  return { name: t.name, description: t.description, parametersJsonSchema: t.parameters };
}
