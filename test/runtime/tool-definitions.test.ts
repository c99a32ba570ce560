// The built-in tools as the model sees them, held byte for byte: name,
// description and JSON Schema of every tool in the first request of a run, and
// the answers to a fixed set of calls (bad arguments, an unknown tool, the
// simple failures and empty answers of each tool). Any change to a tool's
// definition or its messages shows here as a diff of tool-definitions.json
// (docs/tools.md). After a deliberate change, regenerate the file with
// CRABTALK_WRITE_TOOL_SNAPSHOT=1 and review the diff.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const SNAPSHOT = join(import.meta.dir, "tool-definitions.json");

const t = useLlmDaemon("openai", { extraConfig: '\n[system.tools]\nsandbox = "off"\n' });

/** One call per line: its id says what it checks. */
const CALLS: [id: string, name: string, args: string][] = [
  ["unknown-tool", "no_such_tool", "{}"],
  ["not-json", "bash", "{not json"],
  ["bash-empty", "bash", "{}"],
  ["bash-timeout-too-long", "bash", JSON.stringify({ command: "true", timeout: 601 })],
  ["bash-env-not-strings", "bash", JSON.stringify({ command: "true", env: { A: 1 } })],
  ["bash-runs", "bash", JSON.stringify({ command: "printf out; printf err >&2; exit 2" })],
  ["ask_user-empty", "ask_user", "{}"],
  ["ask_user-no-questions", "ask_user", JSON.stringify({ questions: [] })],
  ["delegate-empty", "delegate", "{}"],
  ["delegate-no-tasks", "delegate", JSON.stringify({ tasks: [] })],
  ["mcp-empty", "mcp", "{}"],
  ["mcp-lists-none", "mcp", JSON.stringify({ name: "" })],
  ["mcp-bad-args", "mcp", JSON.stringify({ name: "x", args: 5 })],
  ["recall-empty", "recall", "{}"],
  ["recall-none", "recall", JSON.stringify({ query: "nothing-matches-this" })],
  ["remember-empty", "remember", "{}"],
  ["forget-empty", "forget", "{}"],
  ["forget-missing", "forget", JSON.stringify({ name: "ghost" })],
  ["memory-empty", "memory", "{}"],
  ["skill-empty", "skill", "{}"],
  ["skill-climbs", "skill", JSON.stringify({ name: "../x" })],
  ["skill-lists-none", "skill", JSON.stringify({ name: "" })],
];

test("the tool definitions sent to the model and the tools' answers match the snapshot", async () => {
  t.env.fake.script({ toolCalls: CALLS.map(([id, name, args]) => ({ id, name, arguments: args })) }, { text: "done" });
  const results = new Map<string, { output: string; isError: boolean }>();
  for await (const e of t.client.stream({ agent: "crab", content: "call every tool", sender: "snapshot" })) {
    if (e.event.case === "toolResult") results.set(e.event.value.callId, { output: e.event.value.output, isError: e.event.value.isError });
  }
  const first = t.env.fake.requests.find((r) => (r.body as { stream?: boolean } | undefined)?.stream === true);
  if (!first) throw new Error("the model was never asked");
  const actual = {
    tools: (first.body as { tools: unknown[] }).tools,
    answers: CALLS.map(([id]) => ({ id, ...results.get(id) })),
  };
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.CRABTALK_WRITE_TOOL_SNAPSHOT === "1") writeFileSync(SNAPSHOT, text);
  expect(text).toBe(readFileSync(SNAPSHOT, "utf8"));
});
