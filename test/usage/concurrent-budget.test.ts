// [system.budget] daily_usd with runs started at once (docs/usage.md
// "Budgets"): each request holds its worst case before it is sent, so 20
// concurrent runs never together pass the budget, the last ones admitted get
// a lowered max_tokens, and `crabtalk usage` shows what is held meanwhile.
// The fake bills every request to its limit (the prompt counted as the
// daemon estimates it, the whole output limit): the worst case, never more.
import { until } from "../support/until.ts";
import { ledgerOf, pricedFake } from "../support/ledger.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";
import { outputLimit, startFakeOpenAI } from "../support/fake-openai.ts";

const BUDGET = 0.01;
const RUNS = 20;

let fake: FakeLLM;
let daemon: TestDaemon;
const clients: Client[] = [];
const home = tempHome();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({
    home,
    config: `${pricedFake(fake.url, 0.1)}
[system.crab]
model = "fake-model"

[system.budget]
daily_usd = ${BUDGET}
`,
  });
  for (let i = 0; i < RUNS; i++) clients.push(await daemon.client());
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await daemon?.stop();
  await fake?.stop();
  cleanup(home);
});

const chatRequests = () => fake.requests.filter((r) => !isTitleRequest(r.body));
const ledger = () => ledgerOf(home);

test("20 runs started at once never pass daily_usd, spend most of it, and usage shows what is reserved meanwhile", async () => {
  const release = Promise.withResolvers<void>();
  for (let i = 0; i < RUNS; i++) fake.script({ text: "done", worstCaseUsage: true, waitFor: release.promise });
  let refused = 0;
  const refusals: string[] = [];
  const runs = clients.map((c, i) =>
    c.send({ agent: "crab", content: `task ${i}`, sender: `runner-${i}` }).then(
      () => "answered",
      (err: Error) => {
        refused++;
        refusals.push(err.message);
        return "refused";
      },
    ),
  );
  // Every run either holds a request at the fake or was refused: all 20 decided while none has finished.
  await until(() => chatRequests().length + refused === RUNS, { what: "every run to be admitted or refused", timeoutMs: 20_000 });
  const admitted = chatRequests().length;
  expect(admitted).toBeGreaterThanOrEqual(3);
  expect(refused).toBeGreaterThan(0);

  const held = JSON.parse((await runCli(["usage", "--json"], { home })).stdout);
  expect(held.requests_in_flight).toBe(admitted);
  expect(held.reserved_usd).toBeGreaterThan(BUDGET * 0.9);
  expect(held.spent_today_usd + held.reserved_usd).toBeLessThanOrEqual(BUDGET);
  expect(held.daily_usd).toBe(BUDGET);
  const table = await runCli(["usage"], { home });
  expect(table.stdout).toMatch(
    new RegExp(`^today: \\$0\\.0000 spent, \\$0\\.0\\d{3} reserved by ${admitted} requests in flight, daily budget \\$0\\.0100$`, "m"),
  );

  release.resolve();
  const outcomes = await Promise.all(runs);
  expect(outcomes.filter((o) => o === "answered")).toHaveLength(admitted);
  for (const message of refusals) expect(message).toMatch(/^budget \[system\.budget\] daily_usd \(\$0\.0100\) would be exceeded/);
  // The last one admitted could not be paid its full max_tokens: it got what was left.
  const limits = chatRequests().map((r) => outputLimit(r.body) ?? 0);
  expect(Math.min(...limits)).toBeLessThan(8192);
  expect(Math.min(...limits)).toBeGreaterThanOrEqual(256);

  const spent = ledger().reduce((s, l) => s + l.cost_usd, 0);
  expect(ledger()).toHaveLength(admitted);
  expect(spent).toBeLessThanOrEqual(BUDGET);
  expect(spent).toBeGreaterThan(BUDGET * 0.95);

  const after = await runCli(["usage"], { home });
  expect(after.stdout).toMatch(/^today: \$0\.0\d{3} spent, nothing reserved, daily budget \$0\.0100$/m);
});
