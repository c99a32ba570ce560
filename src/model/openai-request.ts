// Neutral request → Chat Completions request body (daemon.md §8.1, §4.6).
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { Message, ModelRequest, ToolSchema } from "./types.ts";

export type ChatRequestBody = Omit<ChatCompletionCreateParamsBase, "stream" | "stream_options">;

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
 * rest (§8.1). Runs once per message of the history on every request: one
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
 * fragments that are serialized once: each tool schema, the system prompt and
 * each history message (history messages are not changed once sent; a cached
 * fragment is still checked against the message's content and tool calls).
 * At 100 concurrent runs the SDK's JSON.stringify of the whole body, mostly
 * the same tools and prompt every time, was a tenth of the daemon's CPU.
 */
export function chatRequestJson(request: ModelRequest, extra: Record<string, unknown> = {}): string {
  let json = `{"model":${JSON.stringify(request.model)},"messages":[`;
  let first = true;
  if (request.system) {
    json += systemJson(request.system);
    first = false;
  }
  for (const m of request.messages) {
    json += first ? messageJson(m) : `,${messageJson(m)}`;
    first = false;
  }
  json += "]";
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

interface MessageFragment {
  content: string;
  toolCalls: unknown;
  json: string;
}

const messageFragments = new WeakMap<Message, MessageFragment>();

function messageJson(m: Message): string {
  const toolCalls = m.role === "assistant" ? m.toolCalls : undefined;
  const cached = messageFragments.get(m);
  if (cached && cached.content === m.content && cached.toolCalls === toolCalls) return cached.json;
  const json = JSON.stringify(toChatMessage(m));
  messageFragments.set(m, { content: m.content, toolCalls, json });
  return json;
}
