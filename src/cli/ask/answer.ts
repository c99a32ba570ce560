// ask_user answers: turning what the user typed into the reply content the
// daemon hands to the model (docs/tools.md#ask_user): a JSON object mapping each
// question's text to the chosen label, labels joined by ", " for
// multi-select, or the user's own words.
import type { AskQuestion } from "../../protocol/gen/crabtalk_pb.ts";
import { terminalSafe } from "../stream/terminal-safe.ts";

export type ParsedAnswer = { ok: true; answer: string } | { ok: false; reason: string };

type Question = Pick<AskQuestion, "question" | "options" | "multiSelect">;

/** Numbers pick options ("2", or "1, 3" when several are allowed); anything else is a free-text answer. */
export function parseAnswer(q: Question, input: string): ParsedAnswer {
  const text = input.trim();
  if (!text) {
    return { ok: false, reason: q.options.length > 0 ? "type an option's number or your own answer" : "type your answer" };
  }
  if (q.options.length === 0 || !/^\d+(\s*[,\s]\s*\d+)*$/.test(text)) return { ok: true, answer: text };
  const picks = [...new Set(text.split(/[\s,]+/).map(Number))];
  if (picks.some((n) => n < 1 || n > q.options.length)) {
    return { ok: false, reason: `options are numbered 1 to ${q.options.length}` };
  }
  if (picks.length > 1 && !q.multiSelect) return { ok: false, reason: "pick one option" };
  return { ok: true, answer: picks.map((n) => q.options[n - 1].label).join(", ") };
}

export function replyContent(questions: Pick<AskQuestion, "question">[], answers: string[]): string {
  return JSON.stringify(Object.fromEntries(questions.map((q, i) => [q.question, answers[i] ?? ""])));
}

/** The reply sent when nobody can answer, so the run is not left waiting for its timeout. */
export function declinedContent(questions: Pick<AskQuestion, "question">[], why: string): string {
  return replyContent(
    questions,
    questions.map(() => `(no answer: ${why})`),
  );
}

/** The lines that present one question. */
export function questionLines(q: AskQuestion, index: number, total: number): string[] {
  // The model wrote every word of it: shown, never obeyed (docs/security.md#what-reaches-your-terminal).
  const head = [total > 1 ? `(${index + 1}/${total})` : "", q.header ? `[${terminalSafe(q.header)}]` : "", terminalSafe(q.question)].filter(Boolean).join(" ");
  const lines = [head];
  q.options.forEach((opt, i) => {
    lines.push(`  ${i + 1}. ${terminalSafe(opt.label)}${opt.description ? ` — ${terminalSafe(opt.description)}` : ""}`);
  });
  if (q.options.length > 0) {
    lines.push(q.multiSelect ? "  pick one or more numbers (e.g. 1,3), or type your own answer" : "  pick a number, or type your own answer");
  }
  return lines;
}
