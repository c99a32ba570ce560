// Usage accounting end to end: a real daemon on a fake OpenAI server that
// reports usage, the ledger it writes, GetUsage / `crabtalk usage`, cost on
// the wire and in `send --json`, and the per-run budgets.
import { until } from "../support/until.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";
import { loadSessionFile } from "../../src/session/file.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;

// $1 per million input tokens, $2 per million output, $0.5 per million cached.
const PRICES = `prices = { "fake-model" = { input = 1, output = 2, cache_read = 0.5 } }`;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ["fake-model", "free-model"] });
  const home = tempHome();
  mkdirSync(join(home, "local/agents"), { recursive: true });
  writeFileSync(
    join(home, "local/CrabTalk.toml"),
    `[agents.looper]
max_usd_per_run = 0.01

[agents.counter]
max_tokens_per_run = 10000

[agents.unpriced]
model = "free-model"
`,
  );
  mkdirSync(join(home, "local/skills/tick"), { recursive: true });
  writeFileSync(join(home, "local/skills/tick/SKILL.md"), "---\nname: tick\ndescription: a periodic check\n---\n\nReport the time.\n");
  for (const name of ["looper", "counter", "unpriced"]) writeFileSync(join(home, "local/agents", `${name}.md`), `You are ${name}.`);
  daemon = await startDaemon({
    home,
    config: `[provider.fake]
api_key = "test-key"
base_url = "${fake.url}"
models = ["fake-model", "free-model"]
${PRICES}

[system.crab]
model = "fake-model"
`,
  });
  client = await daemon.client();
});

afterAll(async () => {
  await client?.close();
  await daemon?.stop();
  await fake?.stop();
  if (daemon) cleanup(daemon.home);
});

const ledgerPath = () => join(daemon.home, "usage/ledger.jsonl");
const ledger = (): Record<string, unknown>[] =>
  readFileSync(ledgerPath(), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const toolCall = (id: string, usage: { prompt: number; completion: number; cacheHit?: number }) => ({
  toolCalls: [{ id, name: "no_such_tool", arguments: "{}" }],
  usage,
});
const chatRequests = () => fake.requests.filter((r) => !isTitleRequest(r.body)).length;

test("a run appends one ledger line per step with the cost from the configured price", async () => {
  fake.script(toolCall("c1", { prompt: 1000, completion: 100, cacheHit: 400 }), { text: "done", usage: { prompt: 2000, completion: 500 } });
  const response = await client.send({ agent: "crab", content: "count this", sender: "ledger-test" });
  expect(response.content).toBe("done");
  const lines = ledger().filter((l) => l.sender === "ledger-test");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({
    agent: "crab",
    provider: "fake",
    model: "fake-model",
    prompt_tokens: 1000,
    completion_tokens: 100,
    cache_hit_tokens: 400,
    file: expect.stringMatching(/^crab_ledger-test_1/),
  });
  // 600 fresh × $1 + 400 cached × $0.5 + 100 out × $2, per million.
  expect(lines[0].cost_usd).toBeCloseTo(0.001, 12);
  expect(lines[1].cost_usd).toBeCloseTo(0.003, 12);
  expect(response.costUsd).toBeCloseTo(0.004, 12);
  expect(response.usage?.promptTokens).toBe(3000);
});

test("crabtalk usage --by model totals the ledger; --json gives the numbers", async () => {
  const r = await runCli(["usage", "--by", "model", "--json"], { home: daemon.home });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  const fromLedger = ledger().filter((l) => l.model === "fake-model");
  const row = report.rows.find((x: { key: string }) => x.key === "fake-model");
  expect(row.steps).toBe(fromLedger.length);
  expect(row.prompt_tokens).toBe(fromLedger.reduce((s, l) => s + (l.prompt_tokens as number), 0));
  expect(row.cost_usd).toBeCloseTo(
    fromLedger.reduce((s, l) => s + (l.cost_usd as number), 0),
    12,
  );
  expect(report.total.steps).toBe(ledger().length);
  expect(report.prices_as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  const table = await runCli(["usage", "--by", "model", "--since", "1d"], { home: daemon.home });
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^MODEL\s+REQUESTS\s+IN\s+CACHED\s+OUT\s+COST$/m);
  expect(table.stdout).toMatch(/^fake-model\s+\d+\s+/m);
  expect(table.stdout).toMatch(/^total\s+\d+/m);
  expect(table.stdout).toContain("prices as of ");
});

test("send --json shows the run's cost on the end event", async () => {
  fake.script({ text: "priced", usage: { prompt: 1000, completion: 1000 } });
  const r = await runCli(["send", "--json", "--sender", "json-cost", "hi"], { home: daemon.home });
  expect(r.code).toBe(0);
  const end = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .at(-1);
  expect(end.type).toBe("end");
  expect(end.cost_usd).toBeCloseTo(0.003, 12);
});

test("a model without a price is counted in tokens and has no cost", async () => {
  fake.script({ text: "free?", usage: { prompt: 50, completion: 5 } });
  const response = await client.send({ agent: "unpriced", content: "hello", sender: "unpriced-test" });
  expect(response.costUsd).toBeUndefined();
  const line = ledger().find((l) => l.sender === "unpriced-test");
  expect(line).toMatchObject({ model: "free-model", prompt_tokens: 50, cost_usd: null });
  const r = await runCli(["usage", "--by", "model", "--model", "free-model"], { home: daemon.home });
  expect(r.stdout).toMatch(/^free-model\s+1\s+50\s+0\s+5\s+no price$/m);
});

test("max_usd_per_run stops a tool loop before the request that would pass it; the session stays loadable", async () => {
  // $0.005 first (less than the request's worst case: the tool schemas alone estimate ~2k input tokens),
  // then a step billed to its limit, which the daemon lowered to the $0.005 left: nothing is left for a third.
  const worst = { toolCalls: [{ id: "l2", name: "no_such_tool", arguments: "{}" }], worstCaseUsage: true };
  // Only two are scripted: a third request would get a plain answer and end the run without an error.
  fake.script(toolCall("l1", { prompt: 1000, completion: 2000 }), worst);
  const before = chatRequests();
  const events = [];
  for await (const e of client.stream({ agent: "looper", content: "loop forever", sender: "budget-test" })) events.push(e);
  expect(chatRequests() - before).toBe(2);
  const end = events.at(-1)?.event;
  expect(end?.case).toBe("end");
  const error = end?.case === "end" ? end.value.error : "";
  expect(error).toContain("max_usd_per_run");
  expect(error).toContain("looper");
  const cost = end?.case === "end" ? (end.value.costUsd ?? 0) : 0;
  expect(cost).toBeLessThanOrEqual(0.01);
  expect(cost).toBeGreaterThan(0.0099);
  // A background title may rename the file between the listing and the read: list again then.
  const loaded = await until(
    async () => {
      const [conversation] = await client.listConversations("looper", "budget-test");
      return loadSessionFile(conversation.filePath).catch((err: { reason?: string }) => (err.reason === "missing" ? undefined : Promise.reject(err)));
    },
    { what: "the run's session file to be read under its current name" },
  );
  expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
});

test("max_tokens_per_run names its budget too", async () => {
  // 4900 tokens, then a step billed to its limit (lowered to the tokens left): none are left for a third.
  const worst = { toolCalls: [{ id: "t2", name: "no_such_tool", arguments: "{}" }], worstCaseUsage: true };
  fake.script(toolCall("t1", { prompt: 900, completion: 4000 }), worst);
  await expect(client.send({ agent: "counter", content: "count", sender: "token-test" })).rejects.toThrow(/max_tokens_per_run of agent 'counter'/);
  const used = ledger()
    .filter((l) => l.sender === "token-test")
    .reduce((s, l) => s + (l.total_tokens as number), 0);
  expect(used).toBeLessThanOrEqual(10000);
  expect(used).toBeGreaterThan(9000);
});

test("cron runs are in the ledger too, as sender cron", async () => {
  const r = await client.send({ agent: "crab", content: "set up", sender: "cron-owner" });
  fake.script({ text: "tick done", usage: { prompt: 500, completion: 0 } });
  await client.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session, once: true });
  const cronLine = () => existsSync(ledgerPath()) && ledger().some((l) => l.sender === "cron");
  for (let waited = 0; !cronLine(); waited += 25) {
    if (waited > 10_000) throw new Error("the cron run never reached the ledger");
    await Bun.sleep(25);
  }
  const line = ledger().find((l) => l.sender === "cron");
  expect(line).toMatchObject({ agent: "crab", prompt_tokens: 500, file: expect.stringMatching(/^crab_cron-owner_1/) });
  expect(line?.cost_usd).toBeCloseTo(0.0005, 12);
});

test("a torn last ledger line is skipped when read and repaired by the next append", async () => {
  appendFileSync(ledgerPath(), '{"time":"2026-01-01T00:00:00Z","model":"torn');
  const before = (await client.getUsage({})).total?.steps ?? 0n;
  fake.script({ text: "after the tear", usage: { prompt: 10, completion: 1 } });
  await client.send({ agent: "crab", content: "again", sender: "torn-test" });
  const after = (await client.getUsage({})).total?.steps ?? 0n;
  expect(after).toBe(before + 1n);
  const lines = readFileSync(ledgerPath(), "utf8").trimEnd().split("\n");
  expect(lines.at(-2)).toBe('{"time":"2026-01-01T00:00:00Z","model":"torn');
  expect(JSON.parse(lines.at(-1) ?? "")).toMatchObject({ sender: "torn-test" });
});

test("bad GetUsage filters are refused with 400", async () => {
  await expect(client.getUsage({ groupBy: "week" })).rejects.toMatchObject({ code: 400 });
  await expect(client.getUsage({ since: "yesterday" })).rejects.toMatchObject({ code: 400 });
  const r = await runCli(["usage", "--since", "soon"], { home: daemon.home });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("'soon' is not a time");
});
