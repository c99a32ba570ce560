// Crabtalk's tool frames as ACP tool calls. The full `tool_start` gives each
// call the model's id and each `tool_result` carries it (docs/protocol.md
// "Tool call ids"), so a result goes to its own call whatever order the calls
// finish in; a daemon that sends no ids gets its results matched in start order.
import type { SessionUpdate, ToolKind } from "@agentclientprotocol/sdk";
import type { ConversationToolCall, ToolCallInfo, ToolResultEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { describeCall } from "../stream/tool-summary.ts";

export interface OpenCall {
  /** The ACP tool call id. */
  id: string;
  /** The model's call id ("" from a daemon without tool call ids). */
  callId: string;
  name: string;
  arguments: string;
}

const KINDS: Record<string, ToolKind> = {
  bash: "execute",
  recall: "search",
  skill: "read",
  remember: "edit",
  forget: "delete",
  memory: "edit",
  ask_user: "other",
  delegate: "other",
};

export function toolKind(name: string): ToolKind {
  if (KINDS[name]) return KINDS[name];
  if (/fetch|http|browse/i.test(name)) return "fetch";
  if (/search|find|grep/i.test(name)) return "search";
  if (/think/i.test(name)) return "think";
  return "other";
}

function parsed(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The bash command's first line, else `name(args)` as chat shows it. */
export function toolTitle(call: Pick<ToolCallInfo, "name" | "arguments">): string {
  if (call.name === "bash") {
    const input = parsed(call.arguments);
    const command = input && typeof input === "object" && "command" in input ? String(input.command) : "";
    const first = command.trim().split("\n")[0];
    if (first) return first;
  }
  return describeCall(call);
}

/** What the editor shows of a result: bash's stdout and stderr as text (its output is JSON, docs/tools.md#bash), else the output as is. */
export function outputText(name: string, output: string): string {
  if (name !== "bash") return output;
  const r = parsed(output);
  if (!r || typeof r !== "object" || !("stdout" in r)) return output;
  const { stdout, stderr, exit_code } = r as { stdout?: unknown; stderr?: unknown; exit_code?: unknown };
  const parts = [String(stdout ?? ""), String(stderr ?? "")].filter(Boolean);
  if (typeof exit_code === "number" && exit_code !== 0) parts.push(`(exit code ${exit_code})`);
  return parts.join(parts[0]?.endsWith("\n") ? "" : "\n");
}

/** A past call as session/load replays it: one `tool_call` with its final status and output (failed when no result was saved). */
export function pastCall(toolCallId: string, call: ConversationToolCall): SessionUpdate {
  const done = call.output !== undefined;
  return {
    sessionUpdate: "tool_call",
    toolCallId,
    title: toolTitle(call),
    kind: toolKind(call.name),
    status: done && !call.isError ? "completed" : "failed",
    rawInput: parsed(call.arguments),
    ...(done ? { content: [{ type: "content" as const, content: { type: "text" as const, text: outputText(call.name, call.output ?? "") } }] } : {}),
  };
}

/** Tracks one prompt's tool calls across steps. */
export class ToolCalls {
  private open: OpenCall[] = [];
  /** An early names-only `tool_start`, kept until the full one replaces it. */
  private early: ToolCallInfo[] | undefined;
  private count = 0;

  constructor(private readonly prefix: string) {}

  /** The updates for a `tool_start`: none for the early names-only frame. */
  started(calls: ToolCallInfo[]): SessionUpdate[] {
    if (this.open.length === 0 && calls.length > 0 && calls.every((c) => c.arguments === "") && !this.early) {
      this.early = calls;
      return [];
    }
    this.early = undefined;
    return calls.map((c) => this.begin(c));
  }

  private begin(call: ToolCallInfo): SessionUpdate {
    const id = `${this.prefix}-${++this.count}`;
    this.open.push({ id, callId: call.id, name: call.name, arguments: call.arguments });
    return {
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: toolTitle(call),
      kind: toolKind(call.name),
      status: "in_progress",
      rawInput: parsed(call.arguments),
    };
  }

  /** Starts any early calls the full frame never replaced (so a result always has a call). */
  private flushEarly(): SessionUpdate[] {
    const early = this.early;
    this.early = undefined;
    return early ? early.map((c) => this.begin(c)) : [];
  }

  finished(result: ToolResultEvent): SessionUpdate[] {
    const updates = this.flushEarly();
    const byId = result.callId ? this.open.findIndex((c) => c.callId === result.callId) : -1;
    const [call] = this.open.splice(Math.max(byId, 0), 1);
    if (!call) return updates;
    updates.push({
      sessionUpdate: "tool_call_update",
      toolCallId: call.id,
      status: result.isError ? "failed" : "completed",
      content: [{ type: "content", content: { type: "text", text: outputText(call.name, result.output) } }],
      rawOutput: { output: parsed(result.output), durationMs: Number(result.durationMs) },
    });
    return updates;
  }

  /** The open call an ask_user or approval question belongs to: by tool name and, for approvals, the shown command. */
  callFor(question: string, approval: boolean): { updates: SessionUpdate[]; call: OpenCall | undefined } {
    const updates = this.flushEarly();
    const candidates = this.open.filter((c) => (approval ? c.name !== "ask_user" : c.name === "ask_user"));
    const shown = candidates.find((c) => {
      const input = parsed(c.arguments);
      const main = c.name === "bash" && input && typeof input === "object" && "command" in input ? String(input.command).trim() : c.arguments;
      return main !== "" && question.includes(main.split("\n")[0]);
    });
    return { updates, call: shown ?? candidates[0] };
  }

  /** Calls still open when the run ended (cancelled or failed). */
  closeAll(status: "failed" | "completed"): SessionUpdate[] {
    const started = this.flushEarly();
    const left = this.open;
    this.open = [];
    return [...started, ...left.map((c): SessionUpdate => ({ sessionUpdate: "tool_call_update", toolCallId: c.id, status }))];
  }
}
