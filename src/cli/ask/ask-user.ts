// Asking the user an ask_user event's questions on the terminal (or from
// piped lines) and delivering the answer with ReplyToAsk on a new connection
// (the stream's connection is busy until `end`, docs/protocol.md#connection-rules).
import type { AskUserEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import type { LineInput } from "../line-input.ts";
import type { Style } from "../style.ts";
import { declinedContent, parseAnswer, questionLines, replyContent } from "./answer.ts";

export interface AskIO {
  input: LineInput;
  /** Writes one line where the questions are shown. */
  say(line: string): void;
  style: Style;
}

/** Reads an answer to every question; null when input ended or the user pressed Ctrl-C. */
export async function collectAnswers(ask: AskUserEvent, io: AskIO): Promise<string | null> {
  const answers: string[] = [];
  for (const [i, q] of ask.questions.entries()) {
    const [head, ...rest] = questionLines(q, i, ask.questions.length);
    io.say(io.style.bold(head));
    for (const line of rest) io.say(line);
    for (;;) {
      const read = await io.input.read(io.style.cyan("answer› "));
      if (read.kind !== "line") return null;
      const parsed = parseAnswer(q, read.text);
      if (parsed.ok) {
        answers.push(parsed.answer);
        break;
      }
      io.say(io.style.yellow(`  ${parsed.reason}`));
    }
  }
  return replyContent(ask.questions, answers);
}

export async function sendReply(conn: ConnectOptions, session: bigint, content: string): Promise<void> {
  await withClient(conn, (client) => client.replyToAsk(session, content));
}

/** Best effort: tell the waiting tool nobody will answer, so the session is not held until its timeout. */
export async function declineAsk(conn: ConnectOptions, session: bigint, ask: AskUserEvent, why: string): Promise<void> {
  await sendReply(conn, session, declinedContent(ask.questions, why)).catch(() => {});
}
