// max_usd_per_run with parallel delegated tasks (docs/usage.md "Budgets"): a
// task's requests count toward the budget of the run that delegated it, and
// each holds its worst case before it is sent, so tasks running at once
// never together pass it. The fake bills every task's request to its limit.
import { until } from "../support/until.ts";
import { ledgerOf, pricedFake } from "../support/ledger.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";

const BUDGET = 0.005;
const TASKS = 6;

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;
const home = tempHome();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  mkdirSync(join(home, "local/agents"), { recursive: true });
  writeFileSync(join(home, "local/CrabTalk.toml"), `[agents.worker]\ndescription = "does one task"\n`);
  writeFileSync(join(home, "local/agents/worker.md"), "You are worker.");
  daemon = await startDaemon({
    home,
    config: `${pricedFake(fake.url, 0.1)}
[system.crab]
model = "fake-model"
max_usd_per_run = ${BUDGET}

[system.tasks]
max_concurrent = ${TASKS}
`,
  });
  client = await daemon.client();
});

afterAll(async () => {
  await client?.close();
  await daemon?.stop();
  await fake?.stop();
  cleanup(home);
});

const workerRequests = () => fake.requests.filter((r) => !isTitleRequest(r.body) && JSON.stringify(r.body.messages).includes("You are worker."));
const ledger = () => ledgerOf(home);

test("parallel delegated tasks count toward the delegating run's max_usd_per_run and never pass it together", async () => {
  const release = Promise.withResolvers<void>();
  const tasks = Array.from({ length: TASKS }, (_, i) => ({ agent: "worker", message: `part ${i}` }));
  fake.script({ toolCalls: [{ id: "d1", name: "delegate", arguments: JSON.stringify({ tasks }) }], usage: { prompt: 100, completion: 50 } });
  for (let i = 0; i < TASKS; i++) fake.script({ text: `part done`, worstCaseUsage: true, waitFor: release.promise });
  const events: Array<{ case?: string; value?: unknown }> = [];
  const run = (async () => {
    for await (const e of client.stream({ agent: "crab", content: "split the work", sender: "boss" })) events.push(e.event);
  })();
  // Several tasks hold a request at once before any is answered.
  await until(() => workerRequests().length >= 3, { what: "three tasks' requests in flight together", timeoutMs: 20_000 });
  release.resolve();
  await run;

  const result = events.find((e) => e.case === "toolResult")?.value as { output: string } | undefined;
  const answers = JSON.parse(result?.output ?? "[]") as { result: string | null; error: string | null }[];
  const done = answers.filter((a) => a.result === "part done");
  const refused = answers.filter((a) => a.error !== null);
  expect(done.length).toBeGreaterThanOrEqual(3);
  expect(refused.length).toBeGreaterThan(0);
  expect(done.length + refused.length).toBe(TASKS);
  for (const a of refused) expect(a.error).toMatch(/^budget max_usd_per_run of agent 'crab' \(\$0\.0050\) would be exceeded/);
  expect(workerRequests()).toHaveLength(done.length);

  // The delegating run itself is then out of budget too: it ends with the budget error.
  const end = events.at(-1);
  expect(end?.case).toBe("end");
  expect((end?.value as { error?: string } | undefined)?.error).toMatch(/^budget max_usd_per_run of agent 'crab'/);

  const lines = ledger();
  expect(lines.filter((l) => l.agent === "worker")).toHaveLength(done.length);
  const spent = lines.reduce((s, l) => s + l.cost_usd, 0);
  expect(spent).toBeLessThanOrEqual(BUDGET);
  expect(spent).toBeGreaterThan(BUDGET * 0.9);
});
