// A stub daemon whose every Stream asks the given questions (ask_user), waits
// for ReplyToAsk on another connection, then answers with the reply it got.
// Stands in for the runtime's ask_user tool when testing clients.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AskQuestionSchema } from "../../src/protocol/gen/crabtalk_pb.ts";
import type { Reply } from "../../src/protocol/codec.ts";
import { notFound } from "../../src/protocol/errors.ts";
import { startStubDaemon, type StubDaemon } from "./stub-daemon.ts";

export type Question = MessageInitShape<typeof AskQuestionSchema>;

export interface AskingDaemon extends StubDaemon {
  /** Every ReplyToAsk content received, in order. */
  replies: string[];
  /** Stream requests received (agent, content, session). */
  streams: { agent: string; content: string; session?: bigint }[];
}

export const ASK_SESSION = 7n;

export function startAskingDaemon(questions: Question[]): AskingDaemon {
  const replies: string[] = [];
  const streams: AskingDaemon["streams"] = [];
  let pending: ((content: string) => void) | undefined;
  const frame = (event: Extract<Reply, { case: "stream" }>["value"]["event"]): Reply => ({
    case: "stream",
    value: { event },
  });
  const stub = startStubDaemon({
    async *stream(req) {
      streams.push({ agent: req.agent, content: req.content, session: req.session });
      yield frame({ case: "start", value: { agent: req.agent, session: ASK_SESSION } });
      yield frame({ case: "toolStart", value: { calls: [{ name: "ask_user", arguments: "{}" }] } });
      const answered = new Promise<string>((resolve) => (pending = resolve));
      yield frame({ case: "askUser", value: { questions } });
      const content = await answered;
      yield frame({ case: "toolResult", value: { callId: "ask1", output: content, durationMs: 5n } });
      yield frame({ case: "toolsComplete", value: {} });
      yield frame({ case: "chunk", value: { content: `got ${content}` } });
      yield frame({ case: "end", value: { agent: req.agent, provider: "stub", model: "stub" } });
    },
    replyToAsk(req) {
      if (req.session !== ASK_SESSION || !pending) throw notFound(`no pending ask_user for session ${req.session}`);
      replies.push(req.content);
      const deliver = pending;
      pending = undefined;
      deliver(req.content);
      return { case: "pong", value: {} };
    },
  });
  return { ...stub, replies, streams };
}
