// The shape of an approval question (docs/protocol.md, "Approvals"): an
// ordinary ask_user question that clients recognise by its header, answered
// with one of three labels through ReplyToAsk.

/** The `header` of every approval question. */
export const APPROVAL_HEADER = "approval";

export const APPROVE_ONCE = "yes";
export const REFUSE = "no";
export const APPROVE_ALWAYS = "always";

/** Whether an ask_user event carries approval questions only (clients answer those differently without a terminal). */
export function isApprovalAsk(ask: { questions: { header: string }[] }): boolean {
  return ask.questions.length > 0 && ask.questions.every((q) => q.header === APPROVAL_HEADER);
}
