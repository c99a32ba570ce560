// The delegate tool (docs/tools.md#delegate): run member agents on tasks in fresh
// sessions, in parallel up to [system.tasks] max_concurrent, each bounded by
// task_timeout, and return their answers in input order.
import { z } from "zod";
import { delegatedScope, type ApprovalScope } from "../approval/gate.ts";
import { defineTool } from "./define.ts";
import type { RunSpend } from "../usage/budget.ts";

const input = z.object({
  tasks: z
    .array(z.object({ agent: z.string().describe("target agent"), message: z.string().describe("the instruction") }))
    .describe("tasks to run in parallel"),
});

export interface TaskResult {
  result?: string;
  error?: string;
}

/** What a task inherits of the run that delegated it. */
export interface TaskInheritance {
  /** Its approve rules (docs/approvals.md). */
  approval?: ApprovalScope;
  /** Its spend: the task's requests count toward its per-run budgets too (docs/usage.md). */
  spend?: RunSpend;
}

/** What delegation needs of the host: run one task to completion. */
export interface TaskRunner {
  runTask(agent: string, message: string, sender: string | undefined, parent: AbortSignal, from?: TaskInheritance): Promise<TaskResult>;
}

export function delegateTool(runner: TaskRunner) {
  return defineTool({
    name: "delegate",
    description:
      "Delegate tasks to other agents. They run in parallel in their own sessions; the call waits for all of them " +
      "and returns a JSON array of {agent, result, error} in the order given.",
    input,
    async run({ tasks }, ctx) {
      if (tasks.length === 0) return { output: "no tasks provided", isError: true };
      const members = ctx.agentDef.members;
      if (members.length > 0) {
        const outsider = tasks.find((t) => !members.includes(t.agent));
        if (outsider) return { output: `agent '${outsider.agent}' is not in your members list`, isError: true };
      }
      const approval = ctx.approval && delegatedScope(ctx.approval, ctx.agentDef.name);
      const results = await Promise.all(
        tasks.map(async (t) => {
          const r = await runner.runTask(t.agent, t.message, ctx.sender, ctx.signal, { approval, spend: ctx.spend });
          return { agent: t.agent, result: r.result ?? null, error: r.error ?? null };
        }),
      );
      return JSON.stringify(results);
    },
  });
}
