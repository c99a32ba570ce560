// The agent loop (docs/agent-loop.md): stream a model round, dispatch the tools it
// asks for concurrently, feed the results back, until it answers or runs out
// of iterations. It knows no sockets, files or tool meanings.
import type { AssistantMessage, Message, Model, ModelRequest, PartialReason, ToolCall, ToolMessage, ToolSchema, Usage } from "../model/types.ts";
import { keepPieces } from "../base/text-pieces.ts";
import { AnswerAssembler } from "./assemble.ts";
import type { AgentEvent, RunResult, StopReason, ToolOutcome } from "./events.ts";
import { addUsage } from "./usage.ts";

export interface AgentSpec {
  name: string;
  model: string;
  systemPrompt: string;
  tools: readonly ToolSchema[];
  maxIterations: number;
  thinking: boolean;
}

export interface ToolContext {
  agent: string;
  sender?: string;
  session: bigint;
  signal: AbortSignal;
}

/** Implemented by the runtime: runs one tool call. Must not throw. */
export interface ToolDispatcher {
  dispatch(call: ToolCall, ctx: ToolContext): Promise<ToolOutcome>;
}

export interface RunOptions {
  spec: AgentSpec;
  model: Model;
  /** Working history; each completed step's messages are appended to it. */
  history: Message[];
  dispatcher?: ToolDispatcher;
  context: Omit<ToolContext, "signal">;
  signal?: AbortSignal;
  /** Called with each completed step's new messages, before the next round (persistence). */
  onStep?: (added: Message[]) => Promise<void> | void;
  /**
   * Auto-compaction (docs/agent-loop.md#compaction): after every step, returns a summary to
   * replace the history with, or undefined (below the threshold, or it failed).
   */
  compact?: (history: readonly Message[]) => Promise<string | undefined>;
  /** Called with the summary once the history was replaced (persistence of the marker). */
  onCompact?: (summary: string) => Promise<void> | void;
  /**
   * Asked before every model request: a reason (a budget that would be
   * exceeded) ends the run with that error instead of making the request; a
   * grant may lower the request's output limit and is released once the
   * request has ended (after its usage was yielded).
   */
  beforeRequest?: (request: ModelRequest) => string | RequestGrant | undefined;
}

/** A request allowed by the budgets (docs/usage.md): its output limit, and what to do once it has ended. */
export interface RequestGrant {
  maxTokens: number;
  release(): void;
}

export const COMPACTED_NOTICE = "\n[context compacted]\n";

export async function* runAgent(options: RunOptions): AsyncGenerator<AgentEvent, RunResult> {
  const { spec, model, history } = options;
  const signal = options.signal ?? new AbortController().signal;
  let usage: Usage | undefined;
  let lastText = "";
  let iterations = 0;

  const finish = (stopReason: StopReason, finalText: string, error?: string): RunResult => ({
    stopReason,
    finalText,
    error,
    usage,
    iterations,
  });

  while (iterations < spec.maxIterations) {
    if (signal.aborted) return yield* done(finish("aborted", lastText, abortText(signal)));
    const request: ModelRequest = {
      model: spec.model,
      system: spec.systemPrompt,
      messages: history,
      tools: spec.tools.length > 0 ? spec.tools : undefined,
      thinking: spec.thinking,
      signal,
    };
    const grant = options.beforeRequest?.(request);
    if (typeof grant === "string") return yield* done(finish("error", "", grant));
    if (grant) request.maxTokens = grant.maxTokens;
    iterations++;
    const answer = new AnswerAssembler();
    let announced = false;
    try {
      try {
        for await (const chunk of model.stream(request)) {
          answer.add(chunk);
          if (chunk.type === "text" && chunk.text) yield { type: "text", text: chunk.text };
          else if (chunk.type === "thinking" && chunk.text) yield { type: "thinking", text: chunk.text };
          else if (chunk.type === "tool_call" && !announced) {
            const names = answer.namedCalls();
            if (names.length > 0) {
              announced = true;
              yield { type: "tool_names", names };
            }
          }
        }
      } catch (err) {
        usage = addUsage(usage, answer.usage);
        if (answer.usage) yield { type: "step_usage", usage: answer.usage };
        grant?.release();
        const aborted = signal.aborted;
        await keepPartial(answer, aborted ? "interrupted" : "error", options);
        if (aborted) return yield* done(finish("aborted", lastText, abortText(signal)));
        return yield* done(finish("error", "", errorText(err)));
      }
      usage = addUsage(usage, answer.usage);
      // The consumer records the usage before it asks for the next event: spent first, hold released after.
      if (answer.usage) yield { type: "step_usage", usage: answer.usage };
    } finally {
      grant?.release();
    }

    const calls = answer.toolCalls();
    if (answer.text === "" && calls.length === 0) {
      return yield* done(finish("no_action", lastText));
    }
    const assistant = withPieces({ role: "assistant", content: answer.text }, answer);
    if (answer.reasoning) assistant.reasoning = answer.reasoning;
    if (answer.reasoningSignature) assistant.reasoningSignature = answer.reasoningSignature;
    if (calls.length > 0) assistant.toolCalls = calls;
    history.push(assistant);
    lastText = answer.text;

    if (calls.length === 0) {
      await options.onStep?.([assistant]);
      // A compacted final step still ends the run with its answer (docs/agent-loop.md#after-a-compaction).
      yield* compactIfDue(options);
      return yield* done(finish("text_response", answer.text));
    }

    yield { type: "tool_start", calls };
    const results = yield* dispatchAll(calls, options, signal);
    history.push(...results);
    yield { type: "tools_complete" };
    await options.onStep?.([assistant, ...results]);
    yield* compactIfDue(options);
  }
  return yield* done(finish("max_iterations", lastText));
}

/**
 * What a failed or interrupted round had said so far is kept, marked as
 * partial, so the session shows it without taking it for a complete answer.
 * Its tool calls are dropped: they never ran, and may be cut mid-argument.
 */
async function keepPartial(answer: AnswerAssembler, reason: PartialReason, options: RunOptions): Promise<void> {
  if (answer.text === "" && answer.reasoning === "") return;
  const partial = withPieces({ role: "assistant", content: answer.text, partial: reason }, answer);
  if (answer.reasoning) partial.reasoning = answer.reasoning;
  options.history.push(partial);
  await options.onStep?.([partial]);
}

/**
 * The message, with the chunks its text and reasoning were built from kept
 * beside it (base/text-pieces.ts): writing it to the session file then never
 * flattens a long answer into a second copy.
 */
function withPieces(message: AssistantMessage, answer: AnswerAssembler): AssistantMessage {
  keepPieces(message, "content", answer.text, answer.textPieces);
  if (answer.reasoning) keepPieces(message, "reasoning", answer.reasoning, answer.reasoningPieces);
  return message;
}

/** docs/agent-loop.md#after-a-compaction: replace the history with the summary and say so on the stream. */
async function* compactIfDue(options: RunOptions): AsyncGenerator<AgentEvent> {
  const summary = await options.compact?.(options.history);
  if (!summary) return;
  options.history.splice(0, options.history.length, { role: "user", content: summary });
  await options.onCompact?.(summary);
  yield { type: "compacted", summary };
  yield { type: "text", text: COMPACTED_NOTICE };
}

async function* done(result: RunResult): AsyncGenerator<AgentEvent, RunResult> {
  yield { type: "done", result };
  return result;
}

/**
 * Runs every call at once; yields each result as it completes, returns the
 * tool messages in call order (docs/agent-loop.md#tool-dispatch).
 */
async function* dispatchAll(calls: ToolCall[], options: RunOptions, signal: AbortSignal): AsyncGenerator<AgentEvent, ToolMessage[]> {
  const finished: Array<{ index: number; outcome: ToolOutcome; durationMs: number }> = [];
  let wake: (() => void) | undefined;
  for (const [index, call] of calls.entries()) {
    const started = performance.now();
    void dispatchOne(call, options, signal).then((outcome) => {
      finished.push({ index, outcome, durationMs: Math.round(performance.now() - started) });
      wake?.();
    });
  }
  const messages: ToolMessage[] = new Array(calls.length);
  for (let seen = 0; seen < calls.length; ) {
    const next = finished.shift();
    if (!next) {
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    seen++;
    const call = calls[next.index];
    messages[next.index] = { role: "tool", content: next.outcome.output, toolCallId: call.id, name: call.name };
    if (next.outcome.isError) messages[next.index].isError = true;
    yield {
      type: "tool_result",
      callId: call.id,
      name: call.name,
      output: next.outcome.output,
      durationMs: next.durationMs,
      isError: next.outcome.isError,
    };
  }
  return messages;
}

async function dispatchOne(call: ToolCall, options: RunOptions, signal: AbortSignal): Promise<ToolOutcome> {
  if (!options.dispatcher) {
    return { output: `tool '${call.name}' called but no tool sender configured`, isError: true };
  }
  try {
    return await options.dispatcher.dispatch(call, { ...options.context, signal });
  } catch (err) {
    return { output: `tool '${call.name}' failed: ${errorText(err)}`, isError: true };
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function abortText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  if (typeof reason === "string") return reason;
  return "run aborted";
}
