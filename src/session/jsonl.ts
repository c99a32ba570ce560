// One JSON line per message, meta object or compact marker (docs/sessions.md#file-format).
import { piecesOf } from "../base/text-pieces.ts";
import type { AssistantMessage, Message, ToolCall, ToolMessage, UserMessage } from "../model/types.ts";

/** Line 1 of a session file. */
export interface SessionMeta {
  agent: string;
  created_by: string;
  /** RFC 3339 UTC time of creation. */
  created_at: string;
  title: string;
  /** Accumulated run time in whole seconds. */
  uptime_secs: number;
}

/** The messages a session file holds: `system` is never written. */
export type StoredMessage = UserMessage | AssistantMessage | ToolMessage;

/** A line after the meta line. */
export type SessionEntry = { kind: "message"; message: StoredMessage } | { kind: "compact"; summary: string };

/** A meta object for a session created now. */
export function newSessionMeta(agent: string, createdBy: string, now: Date = new Date()): SessionMeta {
  return { agent, created_by: createdBy, created_at: rfc3339(now), title: "", uptime_secs: 0 };
}

/** `2026-04-02T10:00:00Z`: RFC 3339 UTC, whole seconds. */
export function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.\d+Z$/, "Z");
}

export function metaToLine(meta: SessionMeta): string {
  const { agent, created_by, created_at, title, uptime_secs } = meta;
  return JSON.stringify({ agent, created_by, created_at, title, uptime_secs });
}

/** The meta object of a line, or undefined if the line is not one. */
export function parseMetaLine(line: string): SessionMeta | undefined {
  const obj = parseObject(line);
  if (obj === undefined) return undefined;
  const { agent, created_by, created_at, title = "", uptime_secs = 0 } = obj;
  if (typeof agent !== "string" || typeof created_by !== "string" || typeof created_at !== "string") return undefined;
  if (typeof title !== "string") return undefined;
  if (typeof uptime_secs !== "number" || !Number.isInteger(uptime_secs) || uptime_secs < 0) return undefined;
  return { agent, created_by, created_at, title, uptime_secs };
}

/** Whether a message is written to the session file (not injected, not system). */
export function isPersisted(message: Message): message is StoredMessage {
  return message.role !== "system" && !(message.role === "user" && message.injected === true);
}

/** JSON line of a message, keys omitted when empty; sender and injected are never written. */
export function messageToLine(message: StoredMessage): string {
  return JSON.stringify(messageFields(message));
}

/** Longest run of a string serialized at once by messageLinePieces, in UTF-16 units. */
export const LINE_PIECE = 64 * 1024;

/**
 * messageToLine in pieces (joined, they are the same line): a string field is
 * escaped LINE_PIECE units at a time, so writing an answer of megabytes never
 * makes a second copy of it as one JSON string (issue 23). An answer kept as
 * the chunks it streamed in (base/text-pieces.ts) is escaped chunk by chunk,
 * without flattening it first.
 */
export function* messageLinePieces(message: StoredMessage): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(messageFields(message))) {
    yield `${first ? "{" : ","}${JSON.stringify(key)}:`;
    first = false;
    const field = key === "content" ? "content" : key === "reasoning_content" ? "reasoning" : undefined;
    if (typeof value === "string" && value.length > LINE_PIECE) {
      yield* jsonStringPieces(field ? piecesOf(message, field, value) : [value]);
    } else yield JSON.stringify(value);
  }
  yield first ? "{}" : "}";
}

/** What JSON.stringify escapes in a string: quote, backslash, control characters, and (when lone) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A run of text as JSON.stringify writes it inside the quotes. */
function escaped(run: string): string {
  // Most text needs no escape: the run itself (often a view of the text), not a new string for the collector.
  return NEEDS_ESCAPE.test(run) ? JSON.stringify(run).slice(1, -1) : run;
}

/**
 * JSON.stringify of the concatenated `parts`, in runs of at most LINE_PIECE
 * units, never cutting a surrogate pair (each half would be escaped alone),
 * also where one part ends and the next begins.
 */
function* jsonStringPieces(parts: Iterable<string>): Generator<string> {
  yield '"';
  /** A high surrogate that ended the previous part: it goes with the next one. */
  let carried = "";
  for (const part of parts) {
    const text = carried ? carried + part : part;
    carried = "";
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + LINE_PIECE);
      const last = text.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        end--;
        if (end === text.length - 1) {
          carried = text.slice(end);
          if (end > at) yield escaped(text.slice(at, end));
          break;
        }
      }
      yield escaped(text.slice(at, end));
      at = end;
    }
  }
  if (carried) yield escaped(carried);
  yield '"';
}

function messageFields(message: StoredMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: message.role };
  if (message.content) out.content = message.content;
  switch (message.role) {
    case "assistant":
      if (message.reasoning) out.reasoning_content = message.reasoning;
      if (message.toolCalls && message.toolCalls.length > 0) out.tool_calls = message.toolCalls.map(toolCallToJson);
      if (message.partial) out.partial = message.partial;
      break;
    case "tool":
      if (message.name) out.name = message.name;
      if (message.toolCallId) out.tool_call_id = message.toolCallId;
      if (message.isError) out.is_error = true;
      break;
    case "user":
      break;
  }
  return out;
}

function toolCallToJson(call: ToolCall): Record<string, unknown> {
  const fn: Record<string, string> = {};
  if (call.name) fn.name = call.name;
  if (call.arguments) fn.arguments = call.arguments;
  return call.id ? { id: call.id, type: "function", function: fn } : { type: "function", function: fn };
}

export function compactMarkerToLine(summary: string): string {
  return JSON.stringify({ compact: summary });
}

/**
 * A line after the meta line, or undefined when it is blank, does not parse
 * (a torn last line) or is no message or marker. Every optional key may be absent.
 */
export function parseEntryLine(line: string): SessionEntry | undefined {
  const obj = parseObject(line);
  if (obj === undefined) return undefined;
  if (typeof obj.compact === "string") return { kind: "compact", summary: obj.compact };
  const message = parseMessage(obj);
  return message === undefined ? undefined : { kind: "message", message };
}

function parseMessage(obj: Record<string, unknown>): StoredMessage | undefined {
  const content = optionalString(obj.content);
  if (content === undefined) return undefined;
  switch (obj.role) {
    case "user":
      return { role: "user", content };
    case "assistant": {
      const reasoning = optionalString(obj.reasoning_content);
      const toolCalls = parseToolCalls(obj.tool_calls);
      if (reasoning === undefined || toolCalls === undefined) return undefined;
      const message: AssistantMessage = { role: "assistant", content };
      if (reasoning) message.reasoning = reasoning;
      if (toolCalls.length > 0) message.toolCalls = toolCalls;
      if (obj.partial === "error" || obj.partial === "interrupted") message.partial = obj.partial;
      return message;
    }
    case "tool": {
      const toolCallId = optionalString(obj.tool_call_id);
      const name = optionalString(obj.name);
      if (toolCallId === undefined || name === undefined) return undefined;
      const message: ToolMessage = { role: "tool", content, toolCallId };
      if (name) message.name = name;
      if (obj.is_error === true) message.isError = true;
      return message;
    }
    default:
      return undefined;
  }
}

function parseToolCalls(value: unknown): ToolCall[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const calls: ToolCall[] = [];
  for (const item of value) {
    if (!isObject(item)) return undefined;
    const fn = item.function === undefined || item.function === null ? {} : item.function;
    if (!isObject(fn)) return undefined;
    const id = optionalString(item.id);
    const name = optionalString(fn.name);
    const args = optionalString(fn.arguments);
    if (id === undefined || name === undefined || args === undefined) return undefined;
    calls.push({ id, name, arguments: args });
  }
  return calls;
}

/** `""` when absent or null, the string when a string, undefined (invalid) otherwise. */
function optionalString(value: unknown): string | undefined {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(line: string): Record<string, unknown> | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return isObject(value) ? value : undefined;
}
