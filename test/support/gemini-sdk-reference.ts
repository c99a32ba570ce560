// The Gemini adapter as it was before it spoke HTTP itself: the request handed
// to `@google/genai` (its parameters, as the old src/model/gemini/request.ts
// built them) and its errors mapped onto ProviderErrors. The wire test
// (test/model/gemini-wire.test.ts) compares the adapter with this reference.
import { ApiError, type Content, type FunctionDeclaration, type GenerateContentConfig, type Part } from "@google/genai";
import { httpError, type ProviderError } from "../../src/model/errors.ts";
import { lowLevelError, redacted } from "../../src/model/failures.ts";
import { GEMINI_SIGNATURE_PREFIX, parseToolArguments } from "../../src/model/tool-args.ts";
import type { AssistantMessage, ModelRequest, ToolSchema } from "../../src/model/types.ts";

export interface SdkParams {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

export function sdkParams(request: ModelRequest): SdkParams {
  const system: string[] = request.system ? [request.system] : [];
  const contents: Content[] = [];
  const add = (role: "user" | "model", parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
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
  if (request.tools && request.tools.length > 0) config.tools = [{ functionDeclarations: request.tools.map(toDeclaration) }];
  if (request.thinking) config.thinkingConfig = { includeThoughts: true };
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
    if (i === 0 && signature) part.thoughtSignature = signature;
    parts.push(part);
  });
  return parts;
}

function toDeclaration(t: ToolSchema): FunctionDeclaration {
  return { name: t.name, description: t.description, parametersJsonSchema: t.parameters };
}

/** The old adapter's mapping: the SDK puts the error body (JSON) in an ApiError's message, after a prefix for errors inside a stream. */
export function sdkError(err: unknown, baseUrl: string, secrets: readonly (string | undefined)[], signal?: AbortSignal): ProviderError {
  if (err instanceof ApiError) return redacted(httpError(err.status, err.message.slice(Math.max(0, err.message.indexOf("{"))), err), secrets, err);
  return redacted(lowLevelError(err, baseUrl, signal), secrets, err);
}
