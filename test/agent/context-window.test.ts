// Context windows: a provider's `context_limits` over the family defaults,
// reported by ListModels, and auto-compaction at 80 % of the window for an
// agent that sets no compact_threshold.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import type { StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { providerTable } from "../support/llm-daemon.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;
const WINDOW = 1000;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({
    config: `${providerTable("fake", "openai", fake, ["fake-model", "gpt-4o", "qwen3:4b"])}
context_limits = { "fake-model" = ${WINDOW} }

[system.crab]
model = "fake-model"
`,
  });
  client = await daemon.client();
  await client.createAgent("never", JSON.stringify({ compact_threshold: 0 }));
});
afterAll(async () => {
  await client.close();
  await daemon.stop();
  await fake.stop();
  cleanup(daemon.home);
});

const compactions = () => fake.requests.filter((r) => r.body?.stream !== true && !isTitleRequest(r.body));

async function run(agent: string, content: string, sender: string): Promise<StreamEvent["event"][]> {
  const out: StreamEvent["event"][] = [];
  for await (const e of client.stream({ agent, content, sender })) out.push(e.event);
  return out;
}
const compacted = (events: StreamEvent["event"][]) => events.some((e) => e.case === "chunk" && e.value.content === "\n[context compacted]\n");

test("ListModels reports each model's window: the override, else its family's default", async () => {
  const models = Object.fromEntries((await client.listModels()).map((m) => [m.name, m.contextLimit]));
  expect(models).toEqual({ "fake-model": WINDOW, "gpt-4o": 128_000, "qwen3:4b": 131_072 });
  const listed = await runCli(["models"], { home: daemon.home });
  expect(listed.stdout).toMatch(/fake-model\s+fake\s+openai\s+1000/);
});

test("without compact_threshold the agent's threshold is 80 % of its model's window", async () => {
  expect((await client.getAgent("crab")).compactThreshold).toBe(WINDOW * 0.8);
  expect((await client.getAgent("never")).compactThreshold).toBeUndefined();
});

test("a history past 80 % of the window, still inside it, is compacted; below 80 % it is not", async () => {
  fake.script({ text: "short answer" });
  expect(compacted(await run("crab", "a short question", "win"))).toBe(false);
  expect(compactions()).toHaveLength(0);

  // ~850 estimated tokens: over 800, under the 1000-token window.
  const big = "x".repeat(3400);
  fake.script({ text: "ok" }, { text: "SUMMARY: a long message of x" });
  const events = await run("crab", big, "win");
  expect(compacted(events)).toBe(true);
  expect(compactions()).toHaveLength(1);
  // The history the estimate counts: the last round's messages, the system prompt aside.
  const sent: { role: string; content?: string }[] = fake.requests.filter((r) => r.body?.stream === true).at(-1)?.body.messages;
  const bytes = sent.filter((m) => m.role !== "system").reduce((n, m) => n + Buffer.byteLength(m.content ?? ""), 0);
  expect(bytes / 4).toBeGreaterThan(WINDOW * 0.8);
  expect(bytes / 4).toBeLessThan(WINDOW);
});

test("compact_threshold = 0 still disables auto-compaction", async () => {
  fake.script({ text: "ok" });
  expect(compacted(await run("never", "x".repeat(3400), "never"))).toBe(false);
  expect(compactions()).toHaveLength(1);
});
