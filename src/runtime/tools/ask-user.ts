// The ask_user tool (docs/tools.md#ask_user): structured questions to the user of a
// streamed run; the answer arrives with ReplyToAsk on another connection.
import { z } from "zod";
import type { AskRegistry } from "../asks.ts";
import { defineTool } from "./define.ts";

export const ASK_TIMEOUT_MS = 300_000;

export const askQuestionSchema = z.object({
  question: z.string().describe("the full question"),
  header: z.string().describe("short title for the UI, about 12 characters"),
  options: z.array(z.object({ label: z.string(), description: z.string() })).describe("the choices"),
  multi_select: z.boolean().default(false).describe("whether several options may be chosen"),
});

const input = z.object({ questions: z.array(askQuestionSchema).min(1) });
export type AskQuestion = z.output<typeof askQuestionSchema>;

/** The questions of an ask_user call's raw arguments, if they parse (for the ask_user frame). */
export function parseAskQuestions(args: string): AskQuestion[] | undefined {
  try {
    const parsed = input.safeParse(JSON.parse(args));
    return parsed.success ? parsed.data.questions : undefined;
  } catch {
    return undefined;
  }
}

export function askUserTool(asks: AskRegistry, timeoutMs = ASK_TIMEOUT_MS) {
  return defineTool({
    name: "ask_user",
    description:
      "Ask the user one or more structured questions with predefined options. The user picks options or types a " +
      "free-text answer; the result maps each question to the chosen label(s), multi-select answers comma-joined.",
    input,
    async run(args, ctx) {
      if (!ctx.streaming) return { output: "ask_user is only available in streaming mode", isError: true };
      return asks.wait(
        ctx.session,
        args.questions.map((q) => q.header || q.question),
        timeoutMs,
        ctx.signal,
      );
    },
  });
}
