// GetUsage (docs/usage.md): ledger lines filtered by time, agent and model,
// summed per group (day, agent, model or session) and overall.
import { localDay } from "../../session/conversations.ts";
import { parseSessionFileName } from "../../session/names.ts";
import type { LedgerLine } from "./ledger.ts";

export const GROUPINGS = ["day", "agent", "model", "session"] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface UsageQuery {
  since?: Date;
  /** Exclusive. */
  until?: Date;
  agent?: string;
  model?: string;
  groupBy?: Grouping;
}

export interface UsageTotals {
  key: string;
  steps: number;
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  reasoningTokens: number;
  costUsd: number;
  unpricedSteps: number;
}

export interface UsageSummary {
  rows: UsageTotals[];
  total: UsageTotals;
}

export function summariseUsage(lines: readonly LedgerLine[], query: UsageQuery): UsageSummary {
  const total = emptyTotals("total");
  const groups = new Map<string, UsageTotals>();
  for (const line of lines) {
    const time = new Date(line.time);
    if (query.since && time < query.since) continue;
    if (query.until && time >= query.until) continue;
    if (query.agent && line.agent !== query.agent) continue;
    if (query.model && line.model !== query.model) continue;
    add(total, line);
    if (!query.groupBy) continue;
    const key = groupKey(line, time, query.groupBy);
    let row = groups.get(key);
    if (!row) groups.set(key, (row = emptyTotals(key)));
    add(row, line);
  }
  const rows = [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { rows, total };
}

function groupKey(line: LedgerLine, time: Date, by: Grouping): string {
  switch (by) {
    case "day":
      return localDay(time);
    case "agent":
      return line.agent;
    case "model":
      return line.model;
    case "session": {
      // The file name without its title slug: stable when a title renames the file.
      const name = parseSessionFileName(line.file);
      return name ? `${name.agent}_${name.sender}_${name.seq}` : line.file || `session ${line.session}`;
    }
  }
}

function emptyTotals(key: string): UsageTotals {
  return {
    key,
    steps: 0,
    promptTokens: 0,
    completionTokens: 0,
    cacheHitTokens: 0,
    cacheMissTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    unpricedSteps: 0,
  };
}

function add(t: UsageTotals, line: LedgerLine): void {
  t.steps++;
  t.promptTokens += line.prompt_tokens;
  t.completionTokens += line.completion_tokens;
  t.cacheHitTokens += line.cache_hit_tokens ?? 0;
  t.cacheMissTokens += line.cache_miss_tokens ?? 0;
  t.reasoningTokens += line.reasoning_tokens ?? 0;
  if (line.cost_usd === null) t.unpricedSteps++;
  else t.costUsd += line.cost_usd;
}

/** RFC 3339 time, or `YYYY-MM-DD` as the start of that local day (`endOfDay`: of the next one). */
export function parseUsageTime(text: string, endOfDay = false): Date | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + (endOfDay ? 1 : 0));
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const t = new Date(text);
  return Number.isNaN(t.getTime()) ? undefined : t;
}
