// Execution, sessions and conversations (docs/protocol.md#runs, docs/protocol.md#sessions-and-conversations).
import { rmSync } from "node:fs";
import { badRequest, conflict, internal, notFound, type ProtocolError } from "../../protocol/errors.ts";
import type { Reply } from "../../protocol/codec.ts";
import type { Handlers, RequestContext } from "../../protocol/server.ts";
import { AgentNotRegisteredError, SessionNotFoundError, type ResolveRequest, type Session } from "../../runtime/sessions.ts";
import { CompactError, compactSession } from "../../runtime/compaction.ts";
import { conversationHistory, conversationPage, listConversations } from "../../session/conversations.ts";
import { SessionFileError } from "../../session/file.ts";
import { resolveSessionPath, SessionPathError } from "../../session/paths.ts";
import { outcomeError, streamFrame, tokenUsage } from "../frames.ts";
import type { DaemonState } from "../state.ts";
import { startTurn } from "../turn.ts";
import { turnGate } from "../turn-gate.ts";
import { checkSender } from "../request-names.ts";

/**
 * A run's own tool sending into the run's session would wait for the run,
 * which waits for the tool: refused at once with 409 (docs/protocol.md "Runs").
 */
async function refuseSelfWait(session: Session, ctx: RequestContext): Promise<void> {
  const run = session.runId;
  if (run === undefined || !ctx.callerRuns || !(await ctx.callerRuns).has(run)) return;
  throw conflict(
    `session ${session.id} is busy with the run whose tool sent this request; that run waits for the tool, so this would wait for itself. ` +
      "Send into a new session instead (crabtalk send --new)",
  );
}

/** How long ReplyToAsk waits for a question that is about to be asked (docs/protocol.md#runs). */
const ASK_REPLY_GRACE_MS = 100;

/** Conversations a search returns when the request names no limit, and at most. */
const DEFAULT_SEARCH_LIMIT = 10;
const MAX_SEARCH_LIMIT = 200;

interface RunRequest {
  agent: string;
  content: string;
  session?: bigint;
  sender?: string;
  cwd?: string;
  newChat: boolean;
  resumeFile?: string;
  /** This run only: a model other than the agent's (docs/protocol.md "Runs"). */
  model?: string;
}

export function sessionHandlers(state: DaemonState): Handlers {
  const begin = async (req: RunRequest, ctx: RequestContext, streaming: boolean) => {
    checkSender(req.sender);
    // Refused before a session is touched: a bad name must leave no message behind.
    const known = req.model === undefined ? [] : state.host.runtime.models.models().map((m) => m.name);
    if (req.model !== undefined && !known.includes(req.model)) {
      throw badRequest(`unknown model '${req.model}'${known.length ? `; known: ${known.join(", ")}` : ": no provider is configured"}`);
    }
    // One start per turn of the event loop (turn-gate.ts): chunks of running streams go first.
    await turnGate.enter();
    const session = await resolveSession(state, req);
    await refuseSelfWait(session, ctx);
    const task = startTurn(state.host, session, {
      content: req.content,
      sender: req.sender || undefined,
      model: req.model,
      signal: ctx.signal,
      stopTools: ctx.shutdown,
      streaming,
    });
    void task.outcome.then(
      (o) => {
        const fields = { agent: session.agent, session: session.id, model: o.model, stop: o.stopReason, iterations: o.iterations };
        if (outcomeError(o)) state.log.warn("run failed", { ...fields, error: outcomeError(o) });
        else state.log.info("run finished", fields);
      },
      (err: Error) => state.log.error("run crashed", { agent: session.agent, session: session.id, error: err.message }),
    );
    return { session, task };
  };

  return {
    send: async (req, ctx) => {
      const { session, task } = await begin(req, ctx, false);
      const outcome = await task.outcome;
      const error = outcomeError(outcome);
      if (error) throw internal(error);
      return {
        case: "response",
        value: {
          agent: req.agent,
          content: outcome.finalText,
          session: session.id,
          provider: outcome.provider,
          model: outcome.model,
          usage: tokenUsage(outcome.usage),
          costUsd: outcome.costUsd,
        },
      };
    },

    stream: (req, ctx) =>
      (async function* (): AsyncGenerator<Reply> {
        const { session, task } = await begin(req, ctx, true);
        yield { case: "stream", value: { event: { case: "start", value: { agent: req.agent, session: session.id } } } };
        for await (const e of task.events) {
          const frame = streamFrame(req.agent, e);
          if (frame) yield frame;
        }
      })(),

    sessions: () => ({
      case: "sessions",
      value: {
        sessions: state.host.sessions.list().map((s) => ({
          id: s.id,
          agent: s.agent,
          createdBy: s.createdBy,
          messageCount: BigInt(s.messageCount),
          aliveSecs: BigInt(s.meta.uptime_secs),
          active: s.running,
          title: s.meta.title,
        })),
      },
    }),

    kill: ({ session }) => {
      if (!state.host.sessions.kill(session)) throw notFound(`session ${session} not found`);
      return { case: "pong", value: {} };
    },

    // Pong whether or not a run was in progress: a cancel racing the run's end is no error.
    cancel: ({ session }) => {
      const open = state.host.sessions.get(session);
      if (!open) throw notFound(`session ${session} not found`);
      open.cancelRun("run cancelled");
      return { case: "pong", value: {} };
    },

    compact: async ({ session }) => {
      const open = state.host.sessions.get(session);
      if (!open) throw notFound(`session ${session} not found`);
      try {
        return { case: "compact", value: { summary: await compactSession(state.host.runtime, open, state.log) } };
      } catch (err) {
        if (err instanceof CompactError) {
          throw err.reason === "empty" ? badRequest(err.message) : err.reason === "agent" ? notFound(err.message) : internal(err.message);
        }
        throw err;
      }
    },

    replyToAsk: async ({ session, content }) => {
      const delivered = await state.host.asks.replyWhenPending(session, content, ASK_REPLY_GRACE_MS);
      if (delivered === 0) throw notFound(`no pending ask_user for session ${session}`);
      return { case: "pong", value: {} };
    },

    listConversations: async ({ agent, sender }) => {
      checkSender(sender);
      const found = await listConversations(state.paths.sessions, agent, sender);
      return {
        case: "conversationList",
        value: {
          conversations: found.map((c) => ({ ...c, messageCount: BigInt(c.messageCount), aliveSecs: BigInt(c.aliveSecs) })),
        },
      };
    },

    getConversationHistory: async ({ filePath, offset, limit }) => {
      const path = confined(state, filePath);
      try {
        const history = limit > 0 ? await conversationPage(path, offset, limit) : await conversationHistory(path);
        return { case: "conversationHistory", value: history };
      } catch (err) {
        throw fileError(err);
      }
    },

    searchSessions: async ({ query, agent, sender, limit }) => {
      if (query.trim() === "") throw badRequest("query is empty");
      if (!state.host.searchIndex) throw internal("conversation search is not available");
      const hits = await state.host.searchIndex.search(query, {
        agent: agent || undefined,
        sender: sender || undefined,
        limit: Math.min(limit || DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT),
      });
      return { case: "sessionSearchResults", value: { hits } };
    },

    deleteConversation: ({ filePath }) => {
      const path = confined(state, filePath);
      state.host.sessions.closeFile(path);
      try {
        rmSync(path);
        state.host.searchIndex?.removed(path);
      } catch (err) {
        throw internal(`cannot delete ${path}: ${(err as Error).message}`);
      }
      return { case: "pong", value: {} };
    },
  };
}

async function resolveSession(state: DaemonState, req: RunRequest): Promise<Session> {
  const resolve: ResolveRequest = {
    agent: req.agent,
    sender: req.sender || undefined,
    session: req.session,
    newChat: req.newChat,
    resumeFile: req.resumeFile,
    cwd: req.cwd || undefined,
  };
  try {
    return await state.host.sessions.resolve(resolve, (name) => state.host.runtime.agents.has(name));
  } catch (err) {
    if (err instanceof SessionNotFoundError || err instanceof AgentNotRegisteredError) throw notFound(err.message);
    throw fileError(err);
  }
}

function confined(state: DaemonState, filePath: string): string {
  try {
    return resolveSessionPath(state.paths.sessions, filePath);
  } catch (err) {
    throw fileError(err);
  }
}

/** Session-file failures as protocol errors: outside → 400, missing → 404, unreadable → 500. */
function fileError(err: unknown): ProtocolError | unknown {
  if (err instanceof SessionPathError) return err.reason === "missing" ? notFound(err.message) : badRequest(err.message);
  if (err instanceof SessionFileError) return err.reason === "missing" ? notFound(err.message) : internal(err.message);
  return err;
}
