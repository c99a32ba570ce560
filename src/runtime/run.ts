// One run of a session (daemon.md §7.2): add the user message, refresh the
// injected context, run the agent loop, persist each step, rewrite the meta
// line, then maybe title the conversation in the background.
import type { AgentEvent, RunResult } from "../agent/events.ts";
import { runAgent } from "../agent/loop.ts";
import type { Message, UserMessage } from "../model/types.ts";
import { appendMessages, renameForTitle, rewriteMeta } from "../session/file.ts";
import { cleanTitle, titleRequestMessages, titleSource } from "../session/title.ts";
import type { AgentDefinition } from "./agent-settings.ts";
import { injectedMessages } from "./inject.ts";
import { modelNameFor, type Runtime } from "./runtime.ts";
import type { Session } from "./sessions.ts";

export interface TurnInput {
  content: string;
  sender?: string;
  signal?: AbortSignal;
  /** Called for background failures (title generation, persistence). */
  warn?: (message: string) => void;
}

export interface TurnOutcome extends RunResult {
  /** Config name of the provider serving the model ("" if none). */
  provider: string;
  /** The model the agent requested ("" if none could be chosen). */
  model: string;
}

/**
 * Runs one turn. The caller must hold `session.lock`. Yields agent events;
 * returns the outcome once everything the run added is on disk.
 */
export async function* runTurn(runtime: Runtime, session: Session, input: TurnInput): AsyncGenerator<AgentEvent, TurnOutcome> {
  const started = Date.now();
  const agent = runtime.agents.get(session.agent);
  const user: UserMessage = { role: "user", content: input.content };
  if (input.sender) user.sender = input.sender;
  session.history = session.history.filter((m) => !(m.role === "user" && m.injected));
  let unsaved: Message[] = [user];

  const finishWith = async (outcome: TurnOutcome): Promise<TurnOutcome> => {
    await persist(session, unsaved, input.warn);
    session.meta = { ...session.meta, uptime_secs: session.meta.uptime_secs + Math.floor((Date.now() - started) / 1000) };
    await rewriteMeta(session.filePath, session.meta).catch((e: Error) => input.warn?.(`meta rewrite failed: ${e.message}`));
    return outcome;
  };

  if (!agent) {
    session.history.push(user);
    const error = `agent '${session.agent}' not registered`;
    const outcome = await finishWith({ stopReason: "error", finalText: "", error, iterations: 0, provider: "", model: "" });
    yield { type: "done", result: outcome };
    return outcome;
  }

  const modelName = modelNameFor(runtime, agent) ?? "";
  let route: ReturnType<Runtime["models"]["resolve"]>;
  try {
    if (!modelName) throw new Error(runtime.noModelHint);
    route = runtime.models.resolve(modelName);
  } catch (err) {
    session.history.push(user);
    const outcome = await finishWith({
      stopReason: "error",
      finalText: "",
      error: (err as Error).message,
      iterations: 0,
      provider: "",
      model: modelName,
    });
    yield { type: "done", result: outcome };
    return outcome;
  }

  const injected = injectedMessages({
    agent,
    agents: [...runtime.agents.values()],
    cwd: session.cwd ?? runtime.cwd,
    home: runtime.home,
  });
  session.history.push(...injected, user);

  const loop = runAgent({
    spec: {
      name: agent.name,
      model: modelName,
      systemPrompt: agent.systemPrompt,
      tools: runtime.tools.schemas(),
      maxIterations: agent.maxIterations,
      thinking: agent.thinking,
    },
    model: route.model,
    history: session.history,
    dispatcher: runtime.tools,
    context: { agent: agent.name, sender: input.sender, session: session.id },
    signal: input.signal,
    onStep: async (added) => {
      const batch = [...unsaved, ...added];
      unsaved = [];
      await persist(session, batch, input.warn);
    },
  });

  let result: RunResult | undefined;
  for (;;) {
    const next = await loop.next();
    if (next.done) {
      result = next.value;
      break;
    }
    if (next.value.type === "done") continue; // re-emitted below, after persistence
    yield next.value;
  }
  const outcome = await finishWith({ ...result, provider: route.provider, model: modelName });
  yield { type: "done", result: outcome };
  maybeTitle(runtime, session, input.warn);
  return outcome;
}

async function persist(session: Session, messages: Message[], warn?: (m: string) => void): Promise<void> {
  if (messages.length === 0) return;
  try {
    await appendMessages(session.filePath, messages);
  } catch (err) {
    warn?.(`could not persist session ${session.id} to ${session.filePath}: ${(err as Error).message}`);
  }
}

/** §6.9: a background title from the active model once there is a first exchange. */
function maybeTitle(runtime: Runtime, session: Session, warn?: (m: string) => void): void {
  if (session.meta.title || !runtime.activeModel) return;
  const source = titleSource(session.history);
  if (!source) return;
  const activeModel = runtime.activeModel;
  void (async () => {
    try {
      const { model } = runtime.models.resolve(activeModel);
      const answer = await model.complete({ model: activeModel, messages: titleRequestMessages(source.user, source.assistant) });
      const title = cleanTitle(answer.content);
      if (!title || session.meta.title) return;
      const release = await session.lock.lock();
      try {
        if (session.meta.title) return;
        session.meta = { ...session.meta, title };
        await rewriteMeta(session.filePath, session.meta);
        session.filePath = await renameForTitle(session.filePath, title);
      } finally {
        release();
      }
    } catch (err) {
      warn?.(`title generation for session ${session.id} failed: ${(err as Error).message}`);
    }
  })();
}

export type { AgentDefinition };
