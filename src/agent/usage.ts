// Field-wise usage sum over a run's rounds (docs/agent-loop.md#usage-and-the-answering-model): optional counters
// are present iff at least one round reported them.
import type { Usage } from "../model/types.ts";

export function addUsage(total: Usage | undefined, round: Usage | undefined): Usage | undefined {
  if (!round) return total;
  if (!total) return { ...round };
  const sum: Usage = {
    promptTokens: total.promptTokens + round.promptTokens,
    completionTokens: total.completionTokens + round.completionTokens,
    totalTokens: total.totalTokens + round.totalTokens,
  };
  for (const key of ["cacheHitTokens", "cacheMissTokens", "cacheWriteTokens", "reasoningTokens"] as const) {
    if (total[key] !== undefined || round[key] !== undefined) sum[key] = (total[key] ?? 0) + (round[key] ?? 0);
  }
  return sum;
}
