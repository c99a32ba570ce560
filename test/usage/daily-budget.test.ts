// [system.budget] daily_usd: a warning event at 80 %, a request's output limit
// lowered to what is left, runs stopped before the request that would pass
// it, and a restart that does not forget today's spend.
import { ledgerOf, pricedFake } from "../support/ledger.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { AgentEventKind, type AgentEventMsg } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";
import { outputLimit } from "../support/fake-openai.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;
const home = tempHome();
const config = (url: string) => `${pricedFake(url, 1)}
[system.crab]
model = "fake-model"

[system.budget]
daily_usd = 0.01
`;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({ home, config: config(fake.url) });
  client = await daemon.client();
});

afterAll(async () => {
  await client?.close();
  await daemon?.stop();
  await fake?.stop();
  cleanup(home);
});

const ledger = () => ledgerOf(home);
const chatRequests = () => fake.requests.filter((r) => !isTitleRequest(r.body)).length;
const spentUsd = () => ledger().reduce((s, l) => s + l.cost_usd, 0);

test("passing 80 % of the daily budget sends one BUDGET_WARNING event", async () => {
  const watcher = await daemon.client();
  const warnings: AgentEventMsg[] = [];
  let dones = 0;
  // Its end (the daemon stops in a later test) is no failure of that test.
  const watching = (async () => {
    for await (const e of watcher.subscribeEvents()) {
      if (e.kind === AgentEventKind.BUDGET_WARNING) warnings.push(e);
      if (e.kind === AgentEventKind.DONE) dones++;
    }
  })().catch(() => {});
  // The subscription is live once it sees a free run end: waiting for that beats sleeping.
  for (let i = 0; i < 100 && dones === 0; i++) {
    fake.script({ text: "free", usage: { prompt: 0, completion: 0 } });
    await client.send({ agent: "crab", content: "warm up", sender: "warm-up" });
    for (let j = 0; j < 10 && dones === 0; j++) await Bun.sleep(10);
  }
  expect(warnings).toHaveLength(0);
  // $0.004 (less than its worst case: the tool schemas alone estimate ~2k input tokens), then a step
  // billed to its limit, which the daemon lowered to the ~$0.006 left.
  fake.script(
    { toolCalls: [{ id: "a1", name: "no_such_tool", arguments: "{}" }], usage: { prompt: 1000, completion: 3000 } },
    { text: "two steps", worstCaseUsage: true },
  );
  const first = await client.send({ agent: "crab", content: "spend", sender: "daily" });
  // The conversation's title is asked for in the background, and may reach the fake before the answer reaches us.
  const lowered = outputLimit(fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)?.body) ?? 0;
  expect(lowered).toBeLessThan(8192);
  expect(lowered).toBeGreaterThan(256);
  expect(first.costUsd ?? 0).toBeLessThanOrEqual(0.01);
  expect(first.costUsd ?? 0).toBeGreaterThan(0.0099);
  for (let i = 0; i < 200 && warnings.length === 0; i++) await Bun.sleep(10);
  expect(warnings).toHaveLength(1);
  expect(warnings[0].content).toMatch(/^daily budget: \$0\.0\d{3} of \$0\.0100 spent today \((99|100)%\)$/);
  expect(warnings[0].agent).toBe("crab");
  await watcher.close();
  await watching;
});

test("a run stops before the request that would pass the daily budget", async () => {
  // Less is left than a request's input and the smallest answer: nothing is sent.
  const before = chatRequests();
  await expect(client.send({ agent: "crab", content: "more", sender: "daily" })).rejects.toThrow(
    /budget \[system\.budget\] daily_usd \(\$0\.0100\) would be exceeded: spent today \$0\.0\d{3}; the next request needs/,
  );
  expect(chatRequests()).toBe(before);
  expect(spentUsd()).toBeLessThanOrEqual(0.01);
});

test("after a restart today's spend still counts: the first request is refused", async () => {
  await client.close();
  await daemon.stop();
  daemon = await startDaemon({ home, config: config(fake.url) });
  client = await daemon.client();
  const before = chatRequests();
  await expect(client.send({ agent: "crab", content: "again", sender: "daily" })).rejects.toThrow(/daily_usd/);
  expect(chatRequests()).toBe(before);
});
