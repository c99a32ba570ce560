// Budgets (docs/usage.md): checked before every model request of a run. The
// next request is expected to cost what the last one did (a tool loop resends
// a history that only grows), so a run stops before the request that would
// pass a limit, not after.
import type { AgentDefinition } from "../agent-settings.ts";

/** What a run has spent so far. */
export class RunSpend {
  usd = 0;
  tokens = 0;
  lastUsd = 0;
  lastTokens = 0;
  /** Every step so far had a price (the run's cost is known). */
  priced = true;

  add(tokens: number, usd: number | undefined): void {
    this.tokens += tokens;
    this.lastTokens = tokens;
    if (usd === undefined) {
      this.priced = false;
      this.lastUsd = 0;
      return;
    }
    this.usd += usd;
    this.lastUsd = usd;
  }
}

export interface DailySpend {
  limitUsd?: number;
  spentUsd: number;
}

/** Why the next request must not be made, naming the budget; undefined when it may. */
export function budgetRefusal(agent: AgentDefinition, run: RunSpend, daily: DailySpend): string | undefined {
  if (agent.maxTokensPerRun !== undefined && passes(run.tokens, run.lastTokens, agent.maxTokensPerRun)) {
    return (
      `budget max_tokens_per_run of agent '${agent.name}' (${agent.maxTokensPerRun} tokens) would be exceeded: ` +
      `this run used ${run.tokens} tokens, its last request ${run.lastTokens}`
    );
  }
  if (agent.maxUsdPerRun !== undefined && passes(run.usd, run.lastUsd, agent.maxUsdPerRun)) {
    return (
      `budget max_usd_per_run of agent '${agent.name}' (${usd(agent.maxUsdPerRun)}) would be exceeded: ` +
      `this run spent ${usd(run.usd)}, its last request ${usd(run.lastUsd)}`
    );
  }
  if (daily.limitUsd !== undefined && passes(daily.spentUsd, run.lastUsd, daily.limitUsd)) {
    return `budget [system.budget] daily_usd (${usd(daily.limitUsd)}) would be exceeded: ${usd(daily.spentUsd)} spent today`;
  }
  return undefined;
}

/** Spent already at the limit, or the next request (estimated) would pass it. */
function passes(spent: number, next: number, limit: number): boolean {
  return spent >= limit || spent + next > limit;
}

/** `$0.0042`: four decimals below a dollar, two above. */
export function usd(amount: number): string {
  return `$${amount < 1 ? amount.toFixed(4) : amount.toFixed(2)}`;
}
