// The daemon's questions as ACP permission requests
// (docs/editors.md#approvals-and-questions). An approval (docs/approvals.md) offers
// allow_once / allow_always / reject_once and answers yes / always / no; a
// cancelled request refuses. An ask_user question with options offers them;
// one without options cannot be asked through ACP and is answered "no answer
// from the editor" at once, so the run never waits for its timeout.
import type { AgentContext, PermissionOption, RequestPermissionRequest, SessionUpdate } from "@agentclientprotocol/sdk";
import { APPROVAL_HEADER, APPROVE_ALWAYS, APPROVE_ONCE, REFUSE } from "../../protocol/approval.ts";
import type { AskQuestion, AskUserEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { replyContent } from "../ask/answer.ts";
import type { ToolCalls } from "./tool-calls.ts";

export const NO_EDITOR_ANSWER = "(no answer: no answer from the editor)";

const APPROVAL_OPTIONS: { option: PermissionOption; answer: string }[] = [
  { option: { optionId: "allow_once", name: "Allow once", kind: "allow_once" }, answer: APPROVE_ONCE },
  { option: { optionId: "allow_always", name: "Allow for this session", kind: "allow_always" }, answer: APPROVE_ALWAYS },
  { option: { optionId: "reject_once", name: "Reject", kind: "reject_once" }, answer: REFUSE },
];

export interface AskContext {
  client: AgentContext;
  sessionId: string;
  calls: ToolCalls;
  /** Sends updates (a tool call the question needs shown first). */
  update(update: SessionUpdate): Promise<void>;
  /** Aborted by session/cancel: pending requests resolve as cancelled. */
  cancelled: AbortSignal;
}

/** The ReplyToAsk content for an ask_user frame: one answer per question. */
export async function answerAsk(ask: AskUserEvent, ctx: AskContext): Promise<string> {
  const answers: string[] = [];
  for (const q of ask.questions) answers.push(await answerOne(q, ctx));
  return replyContent(ask.questions, answers);
}

async function answerOne(q: AskQuestion, ctx: AskContext): Promise<string> {
  const approval = q.header === APPROVAL_HEADER;
  if (!approval && q.options.length === 0) return NO_EDITOR_ANSWER;
  const choices = approval
    ? APPROVAL_OPTIONS
    : q.options.map((o, i) => ({ option: { optionId: `option-${i + 1}`, name: o.label, kind: "allow_once" as const }, answer: o.label }));
  const refusal = approval ? REFUSE : NO_EDITOR_ANSWER;
  if (ctx.cancelled.aborted) return refusal;
  const { updates, call } = ctx.calls.callFor(q.question, approval);
  for (const u of updates) await ctx.update(u);
  // A question no open call explains (should not happen) is shown as a call of its own, so the editor has one to attach it to.
  const toolCallId = call?.id ?? `question-${crypto.randomUUID()}`;
  if (!call) await ctx.update({ sessionUpdate: "tool_call", toolCallId, title: q.question, kind: "other", status: "pending" });
  try {
    const request: RequestPermissionRequest = {
      sessionId: ctx.sessionId,
      // An approval keeps its call's title (the command); a question shows its text.
      toolCall: approval && call ? { toolCallId, status: "pending" } : { toolCallId, title: q.question, status: "pending" },
      options: choices.map((c) => c.option),
    };
    const response = await ctx.client.request("session/request_permission", request, {
      cancellationSignal: ctx.cancelled,
      stopWaitingOnCancel: true,
    });
    if (response.outcome.outcome !== "selected") return refusal;
    const picked = response.outcome.optionId;
    return choices.find((c) => c.option.optionId === picked)?.answer ?? refusal;
  } catch {
    // The editor failed the request or the session was cancelled: nothing is approved.
    return refusal;
  }
}
