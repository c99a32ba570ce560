// Auto-compaction after steps and the Compact operation (docs/agent-loop.md#compaction,
// docs/protocol.md#sessions-and-conversations, docs/protocol.md#stream-runs step 2.7), through a real daemon and the real SDK.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import type { StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { historyOf, sessionLines } from "../support/session-files.ts";

let env: LlmDaemon;
let client: Client;
beforeAll(async () => {
  env = await startLlmDaemon("openai");
  client = await env.daemon.client();
  // A tiny threshold so that one step is enough to trigger compaction.
  await client.createAgent("brief", JSON.stringify({ compact_threshold: 20, compact_tool_max_len: 8 }));
});
afterAll(async () => {
  await client.close();
  await env.stop();
  cleanup(env.daemon.home);
});

const streamed = () => env.fake.requests.filter((r) => r.body?.stream === true);
const compactions = () => env.fake.requests.filter((r) => r.body?.stream !== true && JSON.stringify(r.body.messages).includes("system prompt follows"));

async function run(content: string, sender: string): Promise<StreamEvent["event"][]> {
  const out: StreamEvent["event"][] = [];
  for await (const e of client.stream({ agent: "brief", content, sender })) out.push(e.event);
  return out;
}

test("a step over the threshold is summarised; the next round sees only the summary", async () => {
  env.fake.script(
    { toolCalls: [{ id: "c1", name: "bash", arguments: JSON.stringify({ command: "echo a-fairly-long-output-line" }) }] },
    { text: "SUMMARY-A: the user asked for output, it was printed." },
    { text: "final answer" },
  );
  const events = await run("go", "compact-a");
  const kinds = events.map((e) => e.case);
  const notice = events.findIndex((e) => e.case === "chunk" && e.value.content === "\n[context compacted]\n");
  expect(notice).toBeGreaterThan(kinds.indexOf("toolsComplete"));
  const end = events.at(-1)!;
  expect(end.case === "end" && end.value.error).toBe("");
  // Compaction is not counted in usage: two streamed rounds of the fake's default 10 + 5.
  expect(end.case === "end" && end.value.usage?.promptTokens).toBe(20);
  // The usage ledger has it, though: the summary is a request the run paid for.
  const ledger = readFileSync(join(env.daemon.home, "usage/ledger.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(ledger.filter((l) => l.sender === "compact-a")).toHaveLength(3);

  const request = compactions().at(-1)!.body;
  expect(request.tools).toBeUndefined();
  expect(request.messages[0].role).toBe("system");
  expect(request.messages[0].content).toContain("Summarise the conversation");
  expect(request.messages[1].content).toContain("system prompt follows");
  expect(request.messages[1].content).toContain("<environment>\nos: linux\n</environment>"); // the agent's prompt itself
  const tool = request.messages.find((m: { role: string }) => m.role === "tool");
  expect(tool.content).toBe('{"stdout... [truncated]'); // cut to compact_tool_max_len (8) bytes

  const next = streamed().at(-1)!.body.messages;
  expect(next.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
  expect(next[1].content).toBe("SUMMARY-A: the user asked for output, it was printed.");

  const lines = sessionLines(join(env.daemon.home, "sessions"), "brief_compact-a_");
  expect(lines.slice(1).map((l) => ("compact" in l ? "compact" : l.role))).toEqual(["user", "assistant", "tool", "compact", "assistant"]);
  const history = await historyOf(client, "brief", "compact-a");
  expect(history.messages.map((m) => [m.role, m.content])).toEqual([
    ["user", "SUMMARY-A: the user asked for output, it was printed."],
    ["assistant", "final answer"],
  ]);
});

test("a final answer over the threshold ends the run with that answer, then the history is the summary", async () => {
  const long = "a long final answer ".repeat(10);
  env.fake.script({ text: long }, { text: "SUMMARY-B" });
  const before = streamed().length;
  const events = await run("tell me", "compact-b");
  const text = events
    .filter((e) => e.case === "chunk")
    .map((e) => (e.case === "chunk" ? e.value.content : ""))
    .join("");
  expect(text).toBe(`${long}\n[context compacted]\n`);
  expect(streamed().length - before).toBe(1); // no second round on the bare summary
  env.fake.script({ text: "next" });
  await run("and now?", "compact-b");
  const messages = streamed()
    .at(-1)!
    .body.messages.map((m: { role: string; content: string }) => m.content);
  expect(messages[1]).toBe("SUMMARY-B");
  expect(messages.at(-1)).toBe("and now?");
});

test("a compaction that fails leaves the history alone and the run goes on", async () => {
  env.fake.script(
    { toolCalls: [{ id: "f1", name: "bash", arguments: JSON.stringify({ command: "echo some output to make it long" }) }] },
    { error: { status: 400, message: "summaries not allowed" } },
    { text: "went on" },
    { error: { status: 400, message: "still not allowed" } }, // the check after the final step fails too
  );
  const events = await run("go on", "compact-c");
  expect(events.some((e) => e.case === "chunk" && e.value.content.includes("[context compacted]"))).toBe(false);
  const last = streamed().at(-1)!.body.messages;
  expect(last.some((m: { role: string }) => m.role === "tool")).toBe(true); // the full history went to the model
  expect(
    events
      .filter((e) => e.case === "chunk")
      .map((e) => (e.case === "chunk" ? e.value.content : ""))
      .join(""),
  ).toBe("went on");
});

test("Compact returns a summary of the session and changes nothing", async () => {
  const r = await client.send({ agent: "crab", content: "remember the blue door", sender: "compact-op" });
  env.fake.script({ text: "They talked about a blue door." });
  const summary = await client.compact(r.session);
  expect(summary).toBe("They talked about a blue door.");
  expect(JSON.stringify(compactions().at(-1)!.body.messages)).toContain("remember the blue door");
  const info = (await client.sessions()).find((s) => s.id === r.session)!;
  expect(info.messageCount).toBeGreaterThanOrEqual(2n);
  const lines = sessionLines(join(env.daemon.home, "sessions"), "crab_compact-op_");
  expect(lines.some((l) => "compact" in l)).toBe(false);
  expect((await daemonError(client.compact(424242n))).code).toBe(404);
  env.fake.script({ error: { status: 400, message: "nope" } });
  const failed = await daemonError(client.compact(r.session));
  expect(failed).toMatchObject({ code: 500, message: `compact failed for session ${r.session}` });
});
