// GetUsage (docs/protocol.md "Usage").
import { badRequest } from "../../protocol/errors.ts";
import type { Handlers } from "../../protocol/server.ts";
import { PRICES_AS_OF } from "../../runtime/usage/prices.ts";
import type { DaemonState } from "../state.ts";
import { readLedger } from "../usage/ledger.ts";
import { GROUPINGS, parseUsageTime, summariseUsage, type Grouping, type UsageTotals } from "../usage/report.ts";

export function usageHandlers(state: DaemonState): Handlers {
  return {
    getUsage: async (req) => {
      const groupBy = req.groupBy === "" ? undefined : (req.groupBy as Grouping);
      if (groupBy !== undefined && !GROUPINGS.includes(groupBy)) {
        throw badRequest(`group_by must be one of ${GROUPINGS.join(", ")} (or empty), not '${req.groupBy}'`);
      }
      const since = time("since", req.since, false);
      const until = time("until", req.until, true);
      const summary = summariseUsage(await readLedger(state.paths.usageLedger), {
        since,
        until,
        agent: req.agent || undefined,
        model: req.model || undefined,
        groupBy,
      });
      const held = state.host.inFlight;
      return {
        case: "usageReport",
        value: {
          rows: summary.rows.map(wireRow),
          total: wireRow(summary.total),
          pricesAsOf: PRICES_AS_OF,
          reservedUsd: held.usd,
          reservedTokens: BigInt(Math.ceil(held.tokens)),
          requestsInFlight: held.requests,
          spentTodayUsd: state.host.usage?.spentToday() ?? 0,
          dailyUsd: state.host.runtime.dailyBudgetUsd,
        },
      };
    },
  };
}

function time(field: string, text: string, endOfDay: boolean): Date | undefined {
  if (text === "") return undefined;
  const parsed = parseUsageTime(text, endOfDay);
  if (!parsed) throw badRequest(`${field} must be an RFC 3339 time or YYYY-MM-DD, not '${text}'`);
  return parsed;
}

function wireRow(t: UsageTotals) {
  return {
    key: t.key,
    steps: BigInt(t.steps),
    promptTokens: BigInt(t.promptTokens),
    completionTokens: BigInt(t.completionTokens),
    cacheHitTokens: BigInt(t.cacheHitTokens),
    cacheMissTokens: BigInt(t.cacheMissTokens),
    reasoningTokens: BigInt(t.reasoningTokens),
    costUsd: t.costUsd,
    unpricedSteps: BigInt(t.unpricedSteps),
  };
}
