// Neutral request → Chat Completions request body (docs/agent-loop.md#model-request, docs/providers.md#thinking).
import type { ChatCompletionCreateParamsBase, ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Message, ModelRequest, ToolSchema } from "../types.ts";

type ChatRequestBody = Omit<ChatCompletionCreateParamsBase, "stream" | "stream_options">;

export function toChatRequest(request: ModelRequest): ChatRequestBody {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  for (const m of request.messages) messages.push(toChatMessage(m));
  const body: ChatRequestBody = { model: request.model, messages };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toChatTool);
    body.tool_choice = "auto";
  }
  if (request.thinking) body.reasoning_effort = "high";
  return body;
}

/**
 * Empty content goes out as `null` for assistant messages and `""` for the
 * rest (docs/agent-loop.md#model-request). Runs once per message of the history on every request: one
 * object per message, no spreads.
 */
function toChatMessage(m: Message): ChatCompletionMessageParam {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content };
    case "user":
      return { role: "user", content: m.content };
    case "tool":
      return { role: "tool", content: m.content, tool_call_id: m.toolCallId };
    case "assistant": {
      const content = m.content === "" ? null : m.content;
      const calls = m.toolCalls;
      if (calls === undefined || calls.length === 0) return { role: "assistant", content };
      return {
        role: "assistant",
        content,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })),
      };
    }
  }
}

function toChatTool(t: ToolSchema): ChatCompletionFunctionTool {
  return { type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } };
}

/**
 * JSON.stringify({ ...toChatRequest(request), ...extra }), byte for byte, from
 * parts that are serialized once: each tool schema, the system prompt, and the
 * history's messages up to the first one that is new or changed since the
 * previous request on the same history array (a session's history only grows
 * between requests, so only its tail is serialized again). At 100 concurrent
 * runs the SDK's JSON.stringify of the whole body, mostly the same tools,
 * prompt and history every time, was a tenth of the daemon's CPU.
 */
export function chatRequestJson(request: ModelRequest, extra: Record<string, unknown> = {}): string {
  let json = `{"model":${JSON.stringify(request.model)},"messages":[`;
  if (request.system) json += request.messages.length > 0 ? `${systemJson(request.system)},` : systemJson(request.system);
  json += `${messagesJson(request.messages)}]`;
  if (request.tools && request.tools.length > 0) {
    json += `,"tools":[${request.tools.map(toolJson).join(",")}],"tool_choice":"auto"`;
  }
  if (request.thinking) json += `,"reasoning_effort":"high"`;
  for (const [key, value] of Object.entries(extra)) {
    const text = JSON.stringify(value);
    if (text !== undefined) json += `,${JSON.stringify(key)}:${text}`;
  }
  return `${json}}`;
}

const toolFragments = new WeakMap<ToolSchema, string>();

function toolJson(t: ToolSchema): string {
  let json = toolFragments.get(t);
  if (json === undefined) {
    json = JSON.stringify(toChatTool(t));
    toolFragments.set(t, json);
  }
  return json;
}

/** System prompts seen lately (one per agent, changed only by a reload). */
const systemFragments = new Map<string, string>();
const MAX_SYSTEM_FRAGMENTS = 64;

function systemJson(content: string): string {
  let json = systemFragments.get(content);
  if (json === undefined) {
    if (systemFragments.size >= MAX_SYSTEM_FRAGMENTS) systemFragments.clear();
    json = JSON.stringify({ role: "system", content });
    systemFragments.set(content, json);
  }
  return json;
}

/**
 * The serialized messages of a history array as last sent: each message with
 * the content and tool calls it had then, and where its JSON ends.
 */
interface SentHistory {
  messages: Message[];
  contents: string[];
  toolCalls: unknown[];
  ends: number[];
  json: string;
}

const sentHistories = new WeakMap<readonly Message[], SentHistory>();

const toolCallsOf = (m: Message): unknown => (m.role === "assistant" ? m.toolCalls : undefined);

/** The messages as comma-separated JSON, reusing what was sent before from this array. */
function messagesJson(messages: readonly Message[]): string {
  let sent = sentHistories.get(messages);
  if (!sent) {
    sent = { messages: [], contents: [], toolCalls: [], ends: [], json: "" };
    sentHistories.set(messages, sent);
  }
  // The same message objects, with the content and tool calls they had when sent.
  const limit = Math.min(messages.length, sent.messages.length);
  let same = 0;
  while (same < limit) {
    const m = messages[same]!;
    if (sent.messages[same] !== m || sent.contents[same] !== m.content || sent.toolCalls[same] !== toolCallsOf(m)) break;
    same++;
  }
  let json = same > 0 ? sent.json.slice(0, sent.ends[same - 1]) : "";
  sent.messages.length = sent.contents.length = sent.toolCalls.length = sent.ends.length = same;
  for (let i = same; i < messages.length; i++) {
    const m = messages[i]!;
    const part = JSON.stringify(toChatMessage(m));
    json += i === 0 ? part : `,${part}`;
    sent.messages.push(m);
    sent.contents.push(m.content);
    sent.toolCalls.push(toolCallsOf(m));
    sent.ends.push(json.length);
  }
  sent.json = json;
  return json;
}
