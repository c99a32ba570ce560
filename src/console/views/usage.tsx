// Usage and cost per day and per model (docs/usage.md, GetUsage grouped by
// `day` and by `model`), as charts over the chosen period.
import { useEffect, useState } from "preact/hooks";
import type { UsageReport, UsageRow } from "../../protocol/gen/crabtalk_pb.ts";
import type { Requests } from "../connection.ts";
import { errorText, tokens, usd } from "../format.ts";
import { BarChart, type Bar } from "./bar-chart.tsx";
import { ErrorLine } from "./view-parts.tsx";

const PERIODS = [7, 30, 90];

function dayBefore(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() - (days - 1));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const rowTokens = (r: UsageRow) => Number(r.promptTokens + r.completionTokens);

export function UsageView({ requests }: { requests: Requests }) {
  const [days, setDays] = useState(30);
  const [byDay, setByDay] = useState<UsageReport | undefined>(undefined);
  const [byModel, setByModel] = useState<UsageReport | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    const since = dayBefore(days);
    void (async () => {
      try {
        setByDay(await requests.run((c) => c.getUsage({ since, groupBy: "day" })));
        setByModel(await requests.run((c) => c.getUsage({ since, groupBy: "model" })));
        setError(undefined);
      } catch (err) {
        setError(errorText(err));
      }
    })();
  }, [days]);

  // Cost when anything was priced, else tokens: a chart of zeros tells nothing.
  const priced = (byDay?.total?.costUsd ?? 0) > 0;
  const bars = (rows: UsageRow[]): Bar[] =>
    rows.map((r) => ({
      label: r.key || "(none)",
      value: priced ? r.costUsd : rowTokens(r),
      text: priced ? usd(r.costUsd) : `${tokens(rowTokens(r))} tokens`,
    }));

  return (
    <section aria-labelledby="usage-title">
      <div class="bar">
        <h2 id="usage-title">Usage</h2>
        <label>
          Period{" "}
          <select value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            {PERIODS.map((d) => (
              <option key={d} value={d}>
                last {d} days
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorLine error={error} />
      {byDay?.total && (
        <p class="totals">
          <strong>{usd(byDay.total.costUsd)}</strong> · {tokens(Number(byDay.total.promptTokens))} in / {tokens(Number(byDay.total.completionTokens))} out ·{" "}
          {String(byDay.total.steps)} model calls
          {byDay.total.unpricedSteps > 0n && ` (${byDay.total.unpricedSteps} without a price)`} · today {usd(byDay.spentTodayUsd)}
          {byDay.dailyUsd !== undefined && ` of ${usd(byDay.dailyUsd)} a day`}
        </p>
      )}
      <h3>{priced ? "Cost" : "Tokens"} per day</h3>
      {byDay &&
        (byDay.rows.length ? (
          <BarChart title={`${priced ? "cost" : "tokens"} per day`} bars={bars(byDay.rows)} />
        ) : (
          <p class="empty">No model call in this period.</p>
        ))}
      <h3>{priced ? "Cost" : "Tokens"} per model</h3>
      {byModel &&
        (byModel.rows.length ? (
          <BarChart title={`${priced ? "cost" : "tokens"} per model`} bars={bars(byModel.rows)} />
        ) : (
          <p class="empty">No model call in this period.</p>
        ))}
      {byModel && byModel.rows.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>Per model</caption>
            <thead>
              <tr>
                <th scope="col">model</th>
                <th scope="col">calls</th>
                <th scope="col">in</th>
                <th scope="col">out</th>
                <th scope="col">cost</th>
              </tr>
            </thead>
            <tbody>
              {byModel.rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.key}</th>
                  <td>{String(r.steps)}</td>
                  <td>{tokens(Number(r.promptTokens))}</td>
                  <td>{tokens(Number(r.completionTokens))}</td>
                  <td>{r.unpricedSteps > 0n && r.costUsd === 0 ? "no price" : usd(r.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
