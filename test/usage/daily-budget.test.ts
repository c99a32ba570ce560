// [system.budget] daily_usd: a warning event at 80 %, runs stopped before the
// request that would pass it, and a restart that does not forget today's spend.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { AgentEventKind, type AgentEventMsg } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;
const home = tempHome();
const config = (url: string) => `[provider.fake]
api_key = "test-key"
base_url = "${url}"
models = ["fake-model"]
prices = { "fake-model" = { input = 1, output = 0 } }

[system.crab]
model = "fake-model"

[system.budget]
daily_usd = 0.0025
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

// $0.001 a step.
const step = (id: string) => ({ toolCalls: [{ id, name: "no_such_tool", arguments: "{}" }], usage: { prompt: 1000, completion: 0 } });

test("passing 80 % of the daily budget sends one BUDGET_WARNING event", async () => {
  const watcher = await daemon.client();
  const warnings: AgentEventMsg[] = [];
  let dones = 0;
  const watching = (async () => {
    for await (const e of watcher.subscribeEvents()) {
      if (e.kind === AgentEventKind.BUDGET_WARNING) warnings.push(e);
      if (e.kind === AgentEventKind.DONE) dones++;
    }
  })();
  // The subscription is live once it sees a free run end: waiting for that beats sleeping.
  for (let i = 0; i < 100 && dones === 0; i++) {
    fake.script({ text: "free", usage: { prompt: 0, completion: 0 } });
    await client.send({ agent: "crab", content: "warm up", sender: "warm-up" });
    for (let j = 0; j < 10 && dones === 0; j++) await Bun.sleep(10);
  }
  expect(warnings).toHaveLength(0);
  fake.script(step("a1"), { text: "two steps", usage: { prompt: 1000, completion: 0 } });
  const first = await client.send({ agent: "crab", content: "spend", sender: "daily" });
  expect(first.costUsd).toBeCloseTo(0.002, 12);
  for (let i = 0; i < 200 && warnings.length === 0; i++) await Bun.sleep(10);
  expect(warnings).toHaveLength(1);
  expect(warnings[0].content).toContain("daily budget: $0.0020 of $0.0025");
  expect(warnings[0].agent).toBe("crab");
  await watcher.close();
  await watching.catch(() => {});
});

test("a run stops before the request that would pass the daily budget", async () => {
  // $0.002 spent: the first request may go ($0.003 would be known only after it), the next may not.
  fake.script(step("b1"), step("b2"));
  await expect(client.send({ agent: "crab", content: "more", sender: "daily" })).rejects.toThrow(/\[system\.budget\] daily_usd \(\$0\.0025\)/);
});

test("after a restart today's spend still counts: the first request is refused", async () => {
  await client.close();
  await daemon.stop();
  daemon = await startDaemon({ home, config: config(fake.url) });
  client = await daemon.client();
  const before = fake.requests.length;
  await expect(client.send({ agent: "crab", content: "again", sender: "daily" })).rejects.toThrow(/daily_usd/);
  expect(fake.requests.length).toBe(before);
});
