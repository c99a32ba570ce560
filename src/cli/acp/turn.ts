// session/prompt: one crabtalk Stream run, its frames forwarded as
// session/update notifications, its end as the ACP stop reason
// (docs/editors.md#what-maps-to-what).
import { RequestError, type AgentContext, type PromptResponse, type SessionUpdate } from "@agentclientprotocol/sdk";
import { withClient, connectClient, type ConnectOptions } from "../connect.ts";
import { COMPACTED, runStream, stoppedAtIterationLimit, type StreamOutcome } from "../stream/run-stream.ts";
import { answerAsk } from "./permission.ts";
import type { AcpSession } from "./session.ts";
import { ToolCalls } from "./tool-calls.ts";
import { note } from "./log.ts";

export async function runPrompt(session: AcpSession, content: string, client: AgentContext, conn: ConnectOptions): Promise<PromptResponse> {
  const calls = new ToolCalls(`t${++session.turns}`);
  const cancelled = new AbortController();
  // Updates go out in the order the frames came.
  let sent: Promise<void> = Promise.resolve();
  const update = (u: SessionUpdate): Promise<void> => {
    sent = sent
      .then(() => client.notify("session/update", { sessionId: session.id, update: u }))
      .catch((err: unknown) => note(`could not send an update: ${String(err)}`));
    return sent;
  };
  const cancelRun = async (): Promise<void> => {
    const id = session.daemonSession;
    if (id === undefined) return; // the run has no session yet: cancelled when `start` comes
    await withClient(conn, (c) => c.cancel(id)).catch((err: unknown) => note(`could not cancel session ${id}: ${String(err)}`));
  };
  session.turn = {
    async cancel() {
      if (cancelled.signal.aborted) return;
      cancelled.abort();
      await cancelRun();
    },
  };

  let outcome: StreamOutcome;
  try {
    const daemon = await connectClient(conn);
    try {
      outcome = await runStream(
        daemon,
        { agent: session.agent, content, sender: session.id, cwd: session.cwd },
        {
          onEvent(event) {
            const e = event.event;
            switch (e.case) {
              case "start":
                session.daemonSession = e.value.session;
                if (cancelled.signal.aborted) void cancelRun();
                break;
              case "chunk":
                if (e.value.content && e.value.content !== COMPACTED)
                  void update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: e.value.content } });
                break;
              case "thinking":
                if (e.value.content) void update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.value.content } });
                break;
              case "toolStart":
                for (const u of calls.started(e.value.calls)) void update(u);
                break;
              case "toolResult":
                for (const u of calls.finished(e.value)) void update(u);
                break;
            }
          },
          async onAsk(ask, daemonSession) {
            await sent;
            const reply = await answerAsk(ask, { client, sessionId: session.id, calls, update, cancelled: cancelled.signal });
            await withClient(conn, (c) => c.replyToAsk(daemonSession, reply)).catch((err: unknown) => note(`could not deliver an answer: ${String(err)}`));
          },
        },
      );
    } finally {
      await daemon.close();
    }
  } finally {
    session.turn = undefined;
  }
  for (const u of calls.closeAll("failed")) void update(u);
  await sent;
  return stopReason(outcome, cancelled.signal.aborted, () => maxIterations(session.agent, conn));
}

async function maxIterations(agent: string, conn: ConnectOptions): Promise<number> {
  return withClient(conn, async (c) => (await c.getAgent(agent)).maxIterations);
}

/** The ACP answer to a finished run; a failed run is a JSON-RPC error carrying the daemon's message. */
async function stopReason(outcome: StreamOutcome, cancelled: boolean, limit: () => Promise<number>): Promise<PromptResponse> {
  if (cancelled || outcome.end?.interrupted) return { stopReason: "cancelled" };
  if (outcome.failure) throw new RequestError(-32603, outcome.failure.message, { code: outcome.failure.code });
  if (outcome.end?.error) throw new RequestError(-32603, outcome.end.error);
  if (await stoppedAtIterationLimit(outcome, limit)) return { stopReason: "max_turn_requests" };
  return { stopReason: "end_turn" };
}
