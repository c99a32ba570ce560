// [system.tasks] task_timeout bounds each delegated task (daemon.md §3.4, §10.4).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let env: LlmDaemon;
let client: Client;
beforeAll(async () => {
  env = await startLlmDaemon("openai", { extraConfig: "\n[system.tasks]\ntask_timeout = 1\n" });
  client = await env.daemon.client();
});
afterAll(async () => {
  await client.close();
  await env.stop();
  cleanup(env.daemon.home);
});

test("a delegated task that runs past task_timeout is cancelled and reported", async () => {
  await client.createAgent("sloth", JSON.stringify({ description: "slow" }));
  env.fake.script(
    { toolCalls: [{ id: "d1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "sloth", message: "take your time" }] }) }] },
    { text: "too slow to matter", delayMs: 5000 },
    { text: "the task timed out" },
  );
  let output = "";
  for await (const e of client.stream({ agent: "crab", content: "delegate", sender: "timeout" })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  expect(JSON.parse(output)).toEqual([{ agent: "sloth", result: null, error: "task timed out after 1s" }]);
});
