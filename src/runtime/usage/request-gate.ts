// The check every model request of a run passes before it is sent (docs/usage.md
// "Budgets"): the budgets it counts toward, its worst case at the dearest
// price of the run's model chain, and the reservation that holds it.
import type { Route } from "../../model/fallback.ts";
import { defaultMaxTokens } from "../../model/output-limit.ts";
import type { Message, ToolSchema } from "../../model/types.ts";
import type { Host } from "../host.ts";
import type { Runtime } from "../runtime.ts";
import { dailyBudget, type RunSpend } from "./budget.ts";
import type { ModelPrice } from "./prices.ts";
import { inputTokenEstimate } from "./request-estimate.ts";
import { reserve, type Reservation } from "./reservations.ts";

interface GatedRequest {
  system?: string;
  messages: readonly Message[];
  tools?: readonly ToolSchema[];
  thinking?: boolean;
}

/** A refusal naming the budget, a reservation to release once the request has ended, or undefined: no budget applies. */
export type RequestGate = (request: GatedRequest) => string | Reservation | undefined;

export function requestGate(runtime: Runtime, host: Host, spend: RunSpend, routes: readonly Route[]): RequestGate {
  const price = dearest(routes.map((r) => runtime.prices?.priceOf(r.provider, r.name)));
  return (request) => {
    const budgets = [...spend.allBudgets()];
    if (runtime.dailyBudgetUsd !== undefined) {
      budgets.push(dailyBudget(runtime.dailyBudgetUsd, () => host.usage?.spentToday() ?? 0, host.inFlight));
    }
    if (budgets.length === 0) return undefined;
    return reserve(budgets, host.inFlight, {
      inputTokens: inputTokenEstimate(request),
      price,
      maxTokens: defaultMaxTokens(request.thinking),
    });
  };
}

/**
 * The highest rates of the chain's priced models: a fallback may answer the
 * request. Undefined when none has a price (dollar budgets do not see it).
 */
function dearest(prices: ReadonlyArray<ModelPrice | undefined>): ModelPrice | undefined {
  let top: ModelPrice | undefined;
  for (const p of prices) {
    if (!p) continue;
    top = {
      input: Math.max(top?.input ?? 0, p.input, p.cache_read ?? p.input, p.cache_write ?? p.input),
      output: Math.max(top?.output ?? 0, p.output),
    };
  }
  return top;
}
