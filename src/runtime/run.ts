// One run of a session (docs/agent-loop.md#one-run): preprocess and add the user message,
// refresh the injected context, run the agent loop with the agent's tools,
// persist each step, rewrite the meta line, then maybe title the session.
import { fitToContext } from "./fit-context.ts";
import { basename } from "node:path";
import type { AgentEvent, RunResult, ToolOutcome } from "../agent/events.ts";
import { runAgent, type ToolContext, type ToolDispatcher } from "../agent/loop.ts";
import { withFallback, type FallbackModel, type Route } from "../model/fallback.ts";
import type { Message, ToolCall, Usage, UserMessage } from "../model/types.ts";
import { appendCompactMarker, appendMessages, renameForTitle, rewriteMeta } from "../session/file.ts";
import { cleanTitle, titleRequestMessages, titleSource } from "../session/title.ts";
import type { AgentDefinition } from "./agent-settings.ts";
import { approveCall, runScope, type ApprovalChannel, type ApprovalScope } from "./approval/gate.ts";
import { QuestionQueue, type QuestionEvent } from "./approval/questions.ts";
import { compactionDue, compactionRequest, summarise } from "./compaction.ts";
import { injected, observe, preprocess, type RunScene } from "./hooks.ts";
import type { Host } from "./host.ts";
import type { RuntimeLog } from "../base/runtime-log.ts";
import { modelNameFor, type Runtime } from "./runtime.ts";
import { redactOutput } from "./redact-output.ts";
import type { ToolProcesses } from "./tool-processes.ts";
import { dropInjected } from "./working-history.ts";
import { allows } from "./scope.ts";
import type { Session } from "./sessions.ts";
import { ASK_TIMEOUT_MS, parseAskQuestions } from "./tools/ask-user.ts";
import { RunSpend } from "./usage/budget.ts";
import { requestGate, type RequestGate } from "./usage/request-gate.ts";

export interface TurnInput {
  content: string;
  sender?: string;
  /** This run only: this model instead of the agent's, without its fallbacks. */
  model?: string;
  /** Ends the run (client gone, daemon shutting down): the model stream stops; running tools finish. */
  signal?: AbortSignal;
  /** Cancels running tools too (daemon shutdown, task timeout). A Kill of the session always does. */
  stopTools?: AbortSignal;
  /** Whether a client is streaming this run (ask_user and approval questions need one). */
  streaming: boolean;
  /** Delegated runs: the approval scope inherited from the delegating run. */
  approval?: ApprovalScope;
  /** Delegated runs: the delegating run's spend, whose per-run budgets the task counts toward. */
  parentSpend?: RunSpend;
  /** This run's working directory (a cron's own `cwd`), over the session's. */
  cwd?: string;
  /** Generate a title in the background when the session has none (default true). */
  title?: boolean;
}

/** What a turn reports: the agent's events plus questions for the user (ask_user calls, approvals). */
export type TurnEvent = AgentEvent | QuestionEvent;

export interface TurnOutcome extends RunResult {
  /** Config name of the provider serving the model ("" if none). */
  provider: string;
  /** The model that answered: the agent's own, or a fallback ("" if none could be chosen). */
  model: string;
  /** USD of the run's rounds; undefined when one used a model without a price. */
  costUsd?: number;
}

/**
 * Runs one turn. The caller must hold `session.lock` and have called
 * `session.beginRun()` (so that a Cancel reaches the run). Yields agent events;
 * returns the outcome once everything the run added is on disk.
 */
export async function* runTurn(runtime: Runtime, host: Host, session: Session, input: TurnInput): AsyncGenerator<TurnEvent, TurnOutcome> {
  const started = Date.now();
  try {
    await session.ensureLoaded();
  } catch (err) {
    const outcome: TurnOutcome = {
      stopReason: "error",
      finalText: "",
      error: `session ${session.id} cannot be reloaded: ${(err as Error).message}`,
      iterations: 0,
      provider: "",
      model: "",
    };
    yield { type: "done", result: outcome };
    return outcome;
  }
  const agent = runtime.agents.get(session.agent);
  const scene: RunScene | undefined = agent && {
    agent,
    agents: [...runtime.agents.values()],
    cwd: workingDirectory(runtime, session, input, agent?.cwd),
    home: runtime.home,
    sender: input.sender,
    session: session.id,
  };
  const user: UserMessage = { role: "user", content: scene ? preprocess(runtime.hooks, input.content, scene) : input.content };
  if (input.sender) user.sender = input.sender;
  dropInjected(session.history);
  let unsaved: Message[] = [user];

  const emit = (event: AgentEvent): AgentEvent => {
    if (scene) observe(runtime.hooks, event, scene);
    return event;
  };
  const finishWith = async (outcome: TurnOutcome): Promise<TurnOutcome> => {
    await persist(host, session, unsaved);
    const elapsed = Math.floor((Date.now() - started) / 1000);
    // A rewrite that would write the same meta line is skipped: it costs a read, a write and an fsync of the whole file.
    if (elapsed > 0) {
      session.meta = { ...session.meta, uptime_secs: session.meta.uptime_secs + elapsed };
      await rewriteMeta(session.filePath, session.meta).catch((e: Error) => host.log.warn(`meta rewrite failed: ${e.message}`));
    }
    return outcome;
  };
  const fail = async (error: string, model: string): Promise<TurnOutcome> => {
    session.history.push(user);
    return finishWith({ stopReason: "error", finalText: "", error, iterations: 0, provider: "", model });
  };

  if (!agent || !scene) {
    const outcome = await fail(`agent '${session.agent}' not registered`, "");
    yield { type: "done", result: outcome };
    return outcome;
  }
  const modelName = input.model || (modelNameFor(runtime, agent) ?? "");
  let model: FallbackModel;
  try {
    if (!modelName) throw new Error(runtime.noModelHint);
    // A model asked for by name is the one wanted: no fallback to another.
    model = fallbackChain(runtime, modelName, input.model ? [] : agent.fallback, host.log);
  } catch (err) {
    const outcome = await fail((err as Error).message, modelName);
    yield emit({ type: "done", result: outcome });
    return outcome;
  }

  const dropped = fitToContext(session.history, runtime.models.contextLimit(modelName));
  if (dropped > 0) host.log.warn(`session ${session.id}: ${dropped} older messages left out of the request, past the context window of ${modelName}`);
  session.history.push(...injected(runtime.hooks, { ...scene, userMessage: user.content }), user);
  const spend = new RunSpend(agent, input.parentSpend);
  const gate: RequestGate = requestGate(runtime, host, spend, model.routes);
  // Priced and recorded as the model that answered the step (a fallback, when one was used).
  const recordStep = async (usage: Usage): Promise<void> => {
    const { provider, name } = model.current;
    const costUsd = runtime.prices?.costOf(provider, name, usage);
    spend.add(usage.totalTokens, costUsd);
    await host.usage?.record({
      time: new Date(),
      agent: agent.name,
      sender: input.sender ?? session.createdBy,
      session: session.id,
      file: basename(session.filePath),
      provider,
      model: name,
      usage,
      costUsd,
    });
  };
  // Cancel, Kill and run_timeout stop the whole run, tools included; a client gone stops only the model.
  const timeout = new AbortController();
  const timer =
    agent.runTimeoutSecs > 0
      ? setTimeout(() => timeout.abort(new Error(`run exceeded run_timeout (${agent.runTimeoutSecs}s)`)), agent.runTimeoutSecs * 1000)
      : undefined;
  const stopRun = AbortSignal.any([timeout.signal, session.stopSignal]);
  const modelSignal = input.signal ? AbortSignal.any([stopRun, input.signal]) : stopRun;
  const toolSignal = input.stopTools ? AbortSignal.any([stopRun, input.stopTools]) : stopRun;
  const approvalQuestions = new QuestionQueue();
  const channel: ApprovalChannel | undefined =
    input.streaming && !input.approval
      ? {
          session: session.id,
          remembered: session.alwaysApproved,
          post: (q) => approvalQuestions.post(q),
          signal: modelSignal,
        }
      : undefined;
  const approval = runScope(agent.approve, input.approval, channel);
  const agentLoop = runAgent({
    spec: {
      name: agent.name,
      model: modelName,
      systemPrompt: agent.systemPrompt,
      tools: runtime.tools.schemas(agent.toolWhitelist),
      maxIterations: agent.maxIterations,
      thinking: agent.thinking,
    },
    model,
    history: session.history,
    dispatcher: scopedDispatcher(runtime, host, agent, {
      cwd: scene.cwd,
      streaming: input.streaming,
      signal: toolSignal,
      processes: host.toolProcesses,
      runId: session.runId,
      approval,
      spend,
    }),
    context: { agent: agent.name, sender: input.sender, session: session.id },
    signal: modelSignal,
    beforeRequest: (request) => gate(request),
    onStep: async (added) => {
      const batch = [...unsaved, ...added];
      unsaved = [];
      await persist(host, session, batch);
    },
    compact: async (history) => {
      if (!compactionDue(agent, history, runtime.models.contextLimit(model.current.name))) return undefined;
      // The summary is a request of this run: its cost counts, toward budgets too, and it reserves like any other.
      const request = { ...compactionRequest(modelName, agent, history), signal: modelSignal };
      const grant = gate(request);
      if (typeof grant === "string") {
        host.log.warn(`compaction of session ${session.id} skipped: ${grant}`);
        return undefined;
      }
      if (grant) request.maxTokens = grant.maxTokens;
      try {
        return await summarise(model, request, recordStep);
      } catch (err) {
        // A failed compaction is "no compaction" (docs/agent-loop.md#after-a-compaction): the run goes on as it was.
        host.log.warn(`compaction of session ${session.id} failed: ${(err as Error).message}`);
        return undefined;
      } finally {
        grant?.release();
      }
    },
    onCompact: (summary) =>
      appendCompactMarker(session.filePath, summary).catch((e: Error) =>
        host.log.warn(`could not persist the compaction of session ${session.id}: ${e.message}`),
      ),
  });
  // Approval questions are posted while the loop waits for its tools: they join its events here.
  const loop = channel ? approvalQuestions.interleave(agentLoop) : agentLoop;

  let result: RunResult;
  try {
    for (;;) {
      const next = await loop.next();
      if (next.done) {
        result = next.value;
        break;
      }
      if (next.value.type === "done") continue; // re-emitted below, after persistence
      if (next.value.type === "ask_user") {
        yield next.value; // an approval question: never observed by hooks (its id is the stream client's alone)
        continue;
      }
      if (next.value.type === "step_usage") await recordStep(next.value.usage);
      yield emit(next.value);
      if (next.value.type === "tool_start") {
        const questions = next.value.calls.filter((c) => c.name === "ask_user").flatMap((c) => parseAskQuestions(c.arguments) ?? []);
        if (questions.length > 0) yield { type: "ask_user", questions };
      }
    }
  } finally {
    clearTimeout(timer);
  }
  // The model that answered: a fallback when the agent's own model failed.
  const outcome = await finishWith({
    ...result,
    provider: model.current.provider,
    model: model.current.name,
    costUsd: spend.priced ? spend.ownUsd : undefined,
  });
  yield emit({ type: "done", result: outcome });
  if (input.title !== false) maybeTitle(runtime, host, session);
  return outcome;
}

/**
 * Where a run works (docs/config.md): the directory the run or its client
 * named, else the agent's `cwd` key, else the user's home — never the
 * daemon's own working directory, which may be the crabtalk home.
 */
function workingDirectory(runtime: Runtime, session: Session, input: TurnInput, agentCwd: string | undefined): string {
  return input.cwd ?? session.cwd ?? agentCwd ?? runtime.cwd;
}

/**
 * The agent's model followed by its fallbacks. A fallback no provider serves
 * is left out with a warning: the primary model alone still runs.
 */
function fallbackChain(runtime: Runtime, primary: string, fallback: readonly string[], log: RuntimeLog): FallbackModel {
  const routes: Route[] = [{ name: primary, ...runtime.models.resolve(primary) }];
  for (const name of fallback) {
    if (routes.some((r) => r.name === name)) continue;
    try {
      routes.push({ name, ...runtime.models.resolve(name) });
    } catch (err) {
      log.warn(`fallback model '${name}' skipped: ${(err as Error).message}`);
    }
  }
  return withFallback(routes, ({ from, to, error }) =>
    log.warn(`model '${from.name}' (provider '${from.provider}') failed: ${error.message}; falling back to '${to.name}' (provider '${to.provider}')`),
  );
}

/**
 * The run's dispatcher: refuses calls outside the agent's whitelist before
 * anything runs (docs/agents.md#scope), waits for the user's approval where a rule
 * asks for it (docs/approvals.md), gives tools the session's context, and
 * redacts every secret from what they answer (docs/security.md).
 */
function scopedDispatcher(
  runtime: Runtime,
  host: Host,
  agent: AgentDefinition,
  run: { cwd: string; streaming: boolean; signal: AbortSignal; processes: ToolProcesses; runId?: string; approval: ApprovalScope; spend: RunSpend },
): ToolDispatcher {
  return {
    async dispatch(call: ToolCall, ctx: ToolContext): Promise<ToolOutcome> {
      if (!allows(agent.toolWhitelist, call.name)) return { output: `tool not available: ${call.name}`, isError: true };
      const refusal = await approveCall(host.asks, run.approval, agent.name, call, { timeoutMs: ASK_TIMEOUT_MS, signal: run.signal });
      if (refusal) return refusal;
      const policy = runtime.toolPolicy;
      const context = {
        ...ctx,
        signal: run.signal,
        cwd: run.cwd,
        streaming: run.streaming,
        agentDef: agent,
        policy,
        processes: run.processes,
        run: run.runId,
        approval: run.approval,
        spend: run.spend,
      };
      const outcome = await runtime.tools.dispatch(call, context);
      return policy ? { ...outcome, output: redactOutput(outcome.output, policy.secrets) } : outcome;
    },
  };
}

async function persist(host: Host, session: Session, messages: Message[]): Promise<void> {
  if (messages.length === 0) return;
  try {
    await appendMessages(session.filePath, messages);
    host.searchIndex?.appended(session.filePath, session.meta, messages);
  } catch (err) {
    host.log.warn(`could not persist session ${session.id} to ${session.filePath}: ${(err as Error).message}`);
  }
}

/** docs/sessions.md#titles: a background title from the active model once there is a first exchange. */
function maybeTitle(runtime: Runtime, host: Host, session: Session): void {
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
      // Unloaded while the title was asked for: opened again under its id (its meta from the file).
      const current = host.sessions.get(session.id);
      if (!current) return;
      const release = await current.lock.lock();
      try {
        await current.ensureLoaded();
        if (current.meta.title) return;
        current.meta = { ...current.meta, title };
        await rewriteMeta(current.filePath, current.meta);
        const previous = current.filePath;
        // Tracked to its end (the session and the search index on the new name), so a
        // resume or a search asked after a listing that shows the new name finds it.
        const rename = (async () => {
          current.filePath = await renameForTitle(previous, title);
          host.searchIndex?.renamed(previous, current.filePath, title);
        })();
        await host.sessions.titleRenames.track(rename);
      } finally {
        release();
      }
    } catch (err) {
      host.log.warn(`title generation for session ${session.id} failed: ${(err as Error).message}`);
    }
  })();
}
