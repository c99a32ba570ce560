// `crabtalk usage`: what the runs cost, from the daemon's usage ledger.
import type { Command } from "commander";
import type { UsageReport, UsageRow } from "../../protocol/gen/crabtalk_pb.ts";
import { usd } from "../../base/usd.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { toPlain } from "../plain-json.ts";
import { formatTable } from "../table.ts";
import { costLabel, tokenCount, usageSince } from "../usage-format.ts";
import { action } from "./run.ts";

const GROUPS = ["day", "agent", "model", "session"];

interface UsageOptions {
  since?: string;
  until?: string;
  by?: string;
  agent?: string;
  model?: string;
  json?: boolean;
}

export function registerUsageCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("usage")
    .description("tokens and cost of every model request, from <home>/usage/ledger.jsonl")
    .option("--since <when>", "from this long ago (7d, 24h, 30m, 2w) or this date/time")
    .option("--until <when>", "up to this long ago or this date (inclusive) / time")
    .option("--by <group>", `one row per ${GROUPS.join(" | ")}`)
    .option("-a, --agent <name>", "only this agent's runs")
    .option("-m, --model <name>", "only this model's requests")
    .option("--json", "print {rows, total, prices_as_of, reserved_usd, …} as JSON")
    .addHelpText(
      "after",
      `
Costs come from each provider's prices in config.toml, else from the built-in
price table (its date is printed); a model with neither shows "no price".
The last line is today's spend and what model requests in flight hold
against the budgets right now ("reserved").

Examples:
  crabtalk usage --since 7d --by day
  crabtalk usage --by model --json`,
    )
    .action(
      action(async (opts: UsageOptions) => {
        if (opts.by !== undefined && !GROUPS.includes(opts.by)) throw new Error(`--by must be one of ${GROUPS.join(", ")}`);
        const request = {
          since: opts.since ? usageSince(opts.since) : "",
          until: opts.until ? usageSince(opts.until) : "",
          agent: opts.agent ?? "",
          model: opts.model ?? "",
          groupBy: opts.by ?? "",
        };
        const report = await withClient(conn(), (client) => client.getUsage(request));
        if (opts.json) {
          console.log(JSON.stringify(toPlain(report)));
          return;
        }
        const total = report.total ?? undefined;
        const rows = [...report.rows.map(cells), ...(total ? [cells(total)] : [])];
        console.log(formatTable([opts.by?.toUpperCase() ?? "", "REQUESTS", "IN", "CACHED", "OUT", "COST"], rows));
        console.log(`prices as of ${report.pricesAsOf}`);
        console.log(todayLine(report));
      }),
    );
}

/** Today's spend and what requests in flight hold now, whatever the filters: `today: $0.0040 spent, $0.0030 reserved by 2 requests in flight, daily budget $0.0100`. */
function todayLine(r: UsageReport): string {
  const n = r.requestsInFlight;
  const reserved = n === 0 ? "nothing reserved" : `${usd(r.reservedUsd)} reserved by ${n} request${n === 1 ? "" : "s"} in flight`;
  const budget = r.dailyUsd === undefined ? "no daily budget" : `daily budget ${usd(r.dailyUsd)}`;
  return `today: ${usd(r.spentTodayUsd)} spent, ${reserved}, ${budget}`;
}

function cells(r: UsageRow): string[] {
  const n = (v: bigint) => tokenCount(Number(v));
  return [
    r.key,
    String(r.steps),
    n(r.promptTokens),
    n(r.cacheHitTokens),
    n(r.completionTokens),
    costLabel(r.costUsd, Number(r.steps), Number(r.unpricedSteps)),
  ];
}
