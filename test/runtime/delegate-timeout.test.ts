// [system.tasks] task_timeout bounds each delegated task (docs/config.md#systemtasks, docs/tools.md#delegate).
import { expect, test } from "bun:test";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const t = useLlmDaemon("openai", { extraConfig: "\n[system.tasks]\ntask_timeout = 1\n" });

test("a delegated task that runs past task_timeout is cancelled and reported", async () => {
  await t.client.createAgent("sloth", JSON.stringify({ description: "slow" }));
  t.env.fake.script(
    { toolCalls: [{ id: "d1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "sloth", message: "take your time" }] }) }] },
    { text: "too slow to matter", delayMs: 5000 },
    { text: "the task timed out" },
  );
  let output = "";
  for await (const e of t.client.stream({ agent: "crab", content: "delegate", sender: "timeout" })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  expect(JSON.parse(output)).toEqual([{ agent: "sloth", result: null, error: "task timed out after 1s" }]);
});
