// Agent loop overhead, in-process: runAgent against an instant model (every
// round yields its chunks at once) and no-op tools. No sockets, no files; what
// is left is the loop's own work per turn, step and tool call.
import { z } from "zod";
import type { ToolOutcome } from "../src/agent/events.ts";
import { runAgent, type AgentSpec, type ToolContext, type ToolDispatcher } from "../src/agent/loop.ts";
import type { Message, Model, ModelRequest, ModelResponse, StreamChunk, ToolCall } from "../src/model/types.ts";
import { DEFAULT_AGENT_SETTINGS, type AgentDefinition } from "../src/runtime/agent-settings.ts";
import { defineTool, type ToolCallContext } from "../src/runtime/tools/define.ts";
import { ToolRegistry } from "../src/runtime/tools/registry.ts";
import { progress } from "./stats.ts";
import { summarizeUs, timeAsync, type UsSummary } from "./timing.ts";

export interface AgentOptions {
  /** Measured time per case, in ms (after warm-up). */
  durationMs: number;
}

const USAGE: StreamChunk = { type: "usage", usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };

/**
 * Answers at once. With `toolCalls` > 0 a round whose history does not end in
 * a tool result asks for that many `noop` calls; every other round is "hi".
 */
class InstantModel implements Model {
  constructor(private readonly toolCalls = 0) {}

  complete(_request: ModelRequest): Promise<ModelResponse> {
    throw new Error("InstantModel.complete is not used by the agent loop");
  }

  async *stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const last = request.messages[request.messages.length - 1];
    if (this.toolCalls > 0 && last?.role !== "tool") {
      for (let index = 0; index < this.toolCalls; index++) {
        yield { type: "tool_call", index, id: `c${index + 1}`, name: "noop", arguments: "{}" };
      }
      yield USAGE;
      yield { type: "finish", reason: "tool_calls" };
      return;
    }
    yield { type: "text", text: "hi" };
    yield USAGE;
    yield { type: "finish", reason: "stop" };
  }
}

class NoopDispatcher implements ToolDispatcher {
  async dispatch(_call: ToolCall, _ctx: ToolContext): Promise<ToolOutcome> {
    return { output: "ok", isError: false };
  }
}

function noopRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: "noop",
      description: "does nothing",
      input: z.object({}),
      run: async () => "ok",
    }),
  );
  return registry;
}

function spec(registry: ToolRegistry): AgentSpec {
  return {
    name: "bench",
    model: "instant",
    systemPrompt: "You are a benchmark.",
    tools: registry.schemas(),
    maxIterations: 8,
    thinking: false,
  };
}

const CONTEXT = { agent: "bench", sender: "bench", session: 1n };

const AGENT_DEF: AgentDefinition = {
  ...DEFAULT_AGENT_SETTINGS,
  name: "bench",
  systemPrompt: "You are a benchmark.",
  toolWhitelist: [],
};

/** The per-call context the runtime adds for tools (as src/runtime/run.ts does). */
function callContext(ctx: ToolContext): ToolCallContext {
  return { ...ctx, cwd: process.cwd(), streaming: false, agentDef: AGENT_DEF };
}

/** ToolRegistry as the loop's dispatcher, the way the runtime wires it (minus the whitelist check). */
function registryDispatcher(registry: ToolRegistry): ToolDispatcher {
  return { dispatch: (call, ctx) => registry.dispatch(call, callContext(ctx)) };
}

/**
 * One user turn through runAgent, draining its events. Returns the µs from the
 * start to the first `tools_complete` (the tool step) or undefined without one;
 * throws unless the run ends with the expected text answer after `rounds` rounds.
 */
async function turn(model: Model, dispatcher: ToolDispatcher, agentSpec: AgentSpec, rounds: number): Promise<number | undefined> {
  const history: Message[] = [{ role: "user", content: "hello" }];
  const t0 = Bun.nanoseconds();
  let stepUs: number | undefined;
  const run = runAgent({ spec: agentSpec, model, history, dispatcher, context: CONTEXT });
  for (;;) {
    const next = await run.next();
    if (next.done) {
      const r = next.value;
      if (r.stopReason !== "text_response" || r.finalText !== "hi" || r.iterations !== rounds) {
        throw new Error(`agent bench: unexpected result ${JSON.stringify({ ...r, usage: undefined })}`);
      }
      return stepUs;
    }
    if (next.value.type === "tools_complete" && stepUs === undefined) stepUs = (Bun.nanoseconds() - t0) / 1e3;
    else if (next.value.type === "tool_result" && next.value.isError) {
      throw new Error(`agent bench: tool failed: ${next.value.output}`);
    }
  }
}

export async function runAgentBench(options: AgentOptions) {
  const registry = noopRegistry();
  const agentSpec = spec(registry);
  const noop = new NoopDispatcher();
  const loop = { durationMs: options.durationMs };

  // (a) one model round, no tools.
  const plain = new InstantModel(0);
  const a = await timeAsync(() => turn(plain, noop, agentSpec, 1), loop);
  const noTools = summarizeUs(a.samplesUs);
  progress(`agent turn without tools: mean ${noTools.mean_us} µs, p99 ${noTools.p99_us} µs`);

  // (b) a tool round trip: tool call round, no-op dispatcher, answer round.
  const oneTool = new InstantModel(1);
  const b = await timeAsync(() => turn(oneTool, noop, agentSpec, 2), loop);
  const withTool = summarizeUs(b.samplesUs);
  progress(`agent turn with one tool round trip: mean ${withTool.mean_us} µs, p99 ${withTool.p99_us} µs`);

  // (c) ToolRegistry.dispatch alone: lookup, JSON.parse, zod safeParse, run.
  const call: ToolCall = { id: "c1", name: "noop", arguments: "{}" };
  const ctx = callContext({ ...CONTEXT, signal: new AbortController().signal });
  const check = await registry.dispatch(call, ctx);
  if (check.isError || check.output !== "ok") throw new Error(`agent bench: registry dispatch failed: ${check.output}`);
  const c = await timeAsync(() => registry.dispatch(call, ctx), loop);
  const dispatch = summarizeUs(c.samplesUs, 3);
  progress(`agent registry dispatch: mean ${dispatch.mean_us} µs, p99 ${dispatch.p99_us} µs`);

  // (d) ten parallel no-op calls in one step, through runAgent + ToolRegistry.
  const tenTools = new InstantModel(10);
  const viaRegistry = registryDispatcher(registry);
  const stepSamples: number[] = [];
  const d = await timeAsync(async () => {
    const us = await turn(tenTools, viaRegistry, agentSpec, 2);
    if (us === undefined) throw new Error("agent bench: no tools_complete in the ten-call turn");
    stepSamples.push(us);
  }, loop);
  // stepSamples also holds the warm-up turns: keep the measured tail only.
  const step = summarizeUs(stepSamples.slice(stepSamples.length - d.samplesUs.length));
  const tenTurn = summarizeUs(d.samplesUs);
  progress(`agent step with 10 parallel tool calls: mean ${step.mean_us} µs, p99 ${step.p99_us} µs`);

  const result: {
    turn_no_tools: UsSummary & { model_rounds: number };
    turn_one_tool_round_trip: UsSummary & { model_rounds: number };
    tool_registry_dispatch: UsSummary;
    step_10_parallel_tools: UsSummary & { whole_turn: UsSummary };
    notes: string[];
  } = {
    turn_no_tools: { ...noTools, model_rounds: 1 },
    turn_one_tool_round_trip: { ...withTool, model_rounds: 2 },
    tool_registry_dispatch: dispatch,
    step_10_parallel_tools: { ...step, whole_turn: tenTurn },
    notes: [
      "in-process: runAgent with an instant model (text, usage, finish per round) and a no-op dispatcher; no sockets or files",
      "turn = runAgent from start to its done result, all events drained; tools offered: one no-op tool schema",
      "tool_registry_dispatch = ToolRegistry.dispatch of a no-op tool with z.object({}) input, arguments '{}'",
      "step_10_parallel_tools = turn start to the tools_complete event (model round asking 10 calls + dispatch of all 10 via ToolRegistry, wrapped as the runtime does: per-call context spread); whole_turn adds the answer round",
    ],
  };
  return result;
}
