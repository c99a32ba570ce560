// A delegated run reports to the daemon's log as every run does (docs/architecture.md#how-the-runtime-reports):
// the host's log reaches runs started by the delegate tool, which no client streams.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { providerTable } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // No retries: the helper's first failure moves it to its fallback at once.
  daemon = await startDaemon({
    config: `${providerTable("fake", "openai", fake, ["fake-model", "backup-model"])}
max_retries = 0

[system.crab]
model = "fake-model"
`,
  });
  client = await daemon.client();
});
afterAll(async () => {
  await client.close();
  await daemon.stop();
  await fake.stop();
  cleanup(daemon.home);
});

test("a delegated run's fallback notice reaches the daemon log", async () => {
  await client.createAgent("helper", JSON.stringify({ description: "helps", model: "fake-model", fallback: ["backup-model"] }));
  fake.script(
    { toolCalls: [{ id: "d1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "helper", message: "look it up" }] }) }] },
    { error: { status: 503, message: "unavailable" } },
    { text: "found it on the backup" },
    { text: "the helper found it" },
  );
  let output = "";
  for await (const e of client.stream({ agent: "crab", content: "delegate", sender: "delegate-log" })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  expect(JSON.parse(output)).toEqual([{ agent: "helper", result: "found it on the backup", error: null }]);
  const log = () => readFileSync(join(daemon.home, "logs", "daemon.log"), "utf8");
  const line = await until(
    () =>
      log()
        .split("\n")
        .find((l) => l.includes("falling back to 'backup-model'")),
    { what: "the delegated run's fallback notice in daemon.log" },
  );
  expect(line).toContain("model 'fake-model' (provider 'fake') failed");
});
