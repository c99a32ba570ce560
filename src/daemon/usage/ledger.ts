// The usage ledger (docs/usage.md): `<home>/usage/ledger.jsonl`, one JSON line
// per finished model round, append-only. A crash leaves at worst a torn last
// line, which reading skips and the next append repairs.
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { appendLines } from "../../session/file.ts";
import type { StepUsage } from "../../runtime/usage/step.ts";

/** One ledger line. Token counters absent in the report are absent here too. */
export interface LedgerLine {
  time: string;
  agent: string;
  sender: string;
  session: string;
  file: string;
  provider: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cache_hit_tokens?: number;
  cache_miss_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
  /** null: the model has no price. */
  cost_usd: number | null;
}

export function toLedgerLine(step: StepUsage): LedgerLine {
  const u = step.usage;
  const line: LedgerLine = {
    time: step.time.toISOString(),
    agent: step.agent,
    sender: step.sender,
    session: String(step.session),
    file: step.file,
    provider: step.provider,
    model: step.model,
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.totalTokens,
    cost_usd: step.costUsd ?? null,
  };
  if (u.cacheHitTokens !== undefined) line.cache_hit_tokens = u.cacheHitTokens;
  if (u.cacheMissTokens !== undefined) line.cache_miss_tokens = u.cacheMissTokens;
  if (u.cacheWriteTokens !== undefined) line.cache_write_tokens = u.cacheWriteTokens;
  if (u.reasoningTokens !== undefined) line.reasoning_tokens = u.reasoningTokens;
  return line;
}

/** Appends one line; the directory is made only when missing (not with a mkdir on every turn). */
export async function appendLedger(path: string, line: LedgerLine): Promise<void> {
  const lines = [JSON.stringify(line)];
  try {
    await appendLines(path, lines, true);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await appendLines(path, lines, true);
  }
}

/** Every readable line, in file order; a missing ledger is empty. */
export async function readLedger(path: string): Promise<LedgerLine[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const lines: LedgerLine[] = [];
  for (const raw of text.split("\n")) {
    const line = parseLedgerLine(raw);
    if (line) lines.push(line);
  }
  return lines;
}

function parseLedgerLine(raw: string): LedgerLine | undefined {
  if (raw.trim() === "") return undefined;
  try {
    const o = JSON.parse(raw) as Partial<LedgerLine>;
    if (typeof o.time !== "string" || typeof o.model !== "string" || typeof o.prompt_tokens !== "number") return undefined;
    if (Number.isNaN(Date.parse(o.time))) return undefined;
    return {
      time: o.time,
      agent: str(o.agent),
      sender: str(o.sender),
      session: str(o.session),
      file: str(o.file),
      provider: str(o.provider),
      model: o.model,
      prompt_tokens: o.prompt_tokens,
      completion_tokens: num(o.completion_tokens),
      total_tokens: num(o.total_tokens),
      cache_hit_tokens: optNum(o.cache_hit_tokens),
      cache_miss_tokens: optNum(o.cache_miss_tokens),
      cache_write_tokens: optNum(o.cache_write_tokens),
      reasoning_tokens: optNum(o.reasoning_tokens),
      cost_usd: typeof o.cost_usd === "number" ? o.cost_usd : null,
    };
  } catch {
    return undefined; // a torn last line
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const optNum = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
