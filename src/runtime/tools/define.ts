// What a tool is, and the one way to define one (docs/tools.md#conventions):
// a name, a description and a zod input schema (sent to the model as JSON
// Schema), and `run`, which gets the checked input. The registry
// (registry.ts) validates, dispatches and turns failures into error results.
import type { z } from "zod";
import type { ToolOutcome } from "../../agent/events.ts";
import type { ToolContext } from "../../agent/loop.ts";
import type { AgentDefinition } from "../agent-settings.ts";
import type { ToolPolicy } from "../tool-policy.ts";
import type { ToolProcesses } from "../tool-processes.ts";
import type { ApprovalScope } from "../approval/gate.ts";
import type { RunSpend } from "../usage/budget.ts";

/** What a tool knows of the call beyond its arguments. */
export interface ToolCallContext extends ToolContext {
  /** The session's working directory, else the daemon's. */
  cwd: string;
  /** False in Send runs and delegated runs: nothing can carry a question to a user. */
  streaming: boolean;
  agentDef: AgentDefinition;
  /** Environment and sandbox for processes the tool starts; absent = the daemon's environment, unsandboxed. */
  policy?: ToolPolicy;
  /** Where processes the tool starts are recorded, so their connections stay in the agent's scope. */
  processes?: ToolProcesses;
  /** The run making the call (Session.runId), recorded with the processes tools start. */
  run?: string;
  /** The run's approval rules and who answers them (delegation hands them on). */
  approval?: ApprovalScope;
  /** The run's spend: delegated tasks count toward its per-run budgets (docs/usage.md). */
  spend?: RunSpend;
}

/** A plain string answer is a success; a ToolOutcome says whether it is an error. */
export type ToolAnswer = ToolOutcome | string;

export interface Tool<I = unknown> {
  name: string;
  description: string;
  input: z.ZodType<I>;
  run(input: I, ctx: ToolCallContext): Promise<ToolAnswer>;
}

/**
 * Defines a tool; `run`'s input is typed from the schema. A tool that needs
 * something of the runtime (the memory store, the MCP pool) is a function of
 * it that returns `defineTool(…)`.
 */
export function defineTool<S extends z.ZodType>(tool: {
  name: string;
  description: string;
  input: S;
  run(input: z.output<S>, ctx: ToolCallContext): Promise<ToolAnswer>;
}): Tool<z.output<S>> {
  return tool as Tool<z.output<S>>;
}
