// Per-run spend and the budgets a run's requests count toward (docs/usage.md
// "Budgets"): the agent's max_usd_per_run / max_tokens_per_run, those of the
// run that delegated it (a delegated task is part of the run that asked for
// it), and [system.budget] daily_usd. reservations.ts holds each request's
// worst case against them.
import type { AgentDefinition } from "../agent-settings.ts";
import { Holdings, type Budget } from "./reservations.ts";
import { usd } from "../../base/usd.ts";

/** What a run has spent so far, its delegated tasks included, and what its requests in flight hold. */
export class RunSpend {
  /** USD of priced steps, the run's own and its delegated tasks'. */
  usd = 0;
  tokens = 0;
  /** USD of the run's own steps (its `cost_usd`). */
  ownUsd = 0;
  /** Every own step so far had a price (the run's cost is known). */
  priced = true;
  readonly held = new Holdings();
  private readonly budgets: Budget[];

  constructor(
    agent: Pick<AgentDefinition, "name" | "maxUsdPerRun" | "maxTokensPerRun">,
    readonly parent?: RunSpend,
  ) {
    this.budgets = [...runBudgets(agent, this), ...(parent?.allBudgets() ?? [])];
  }

  /** This run's budgets and those of every run above it. */
  allBudgets(): readonly Budget[] {
    return this.budgets;
  }

  add(tokens: number, usd: number | undefined): void {
    if (usd === undefined) this.priced = false;
    else this.ownUsd += usd;
    for (let run: RunSpend | undefined = this; run; run = run.parent) {
      run.tokens += tokens;
      if (usd !== undefined) run.usd += usd;
    }
  }
}

function runBudgets(agent: Pick<AgentDefinition, "name" | "maxUsdPerRun" | "maxTokensPerRun">, run: RunSpend): Budget[] {
  const budgets: Budget[] = [];
  if (agent.maxTokensPerRun !== undefined) {
    budgets.push({
      label: `max_tokens_per_run of agent '${agent.name}' (${agent.maxTokensPerRun} tokens)`,
      unit: "tokens",
      limit: agent.maxTokensPerRun,
      spent: () => run.tokens,
      spentWords: "this run used",
      held: run.held,
    });
  }
  if (agent.maxUsdPerRun !== undefined) {
    budgets.push({
      label: `max_usd_per_run of agent '${agent.name}' (${usd(agent.maxUsdPerRun)})`,
      unit: "usd",
      limit: agent.maxUsdPerRun,
      spent: () => run.usd,
      spentWords: "this run spent",
      held: run.held,
    });
  }
  return budgets;
}

/** `[system.budget] daily_usd`: every run's requests, held in the daemon-wide tally. */
export function dailyBudget(limitUsd: number, spentToday: () => number, held: Holdings): Budget {
  return { label: `[system.budget] daily_usd (${usd(limitUsd)})`, unit: "usd", limit: limitUsd, spent: spentToday, spentWords: "spent today", held };
}

export { usd };
