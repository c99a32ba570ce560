// ask_user round trips, Kill cancelling a session's tools, and event
// subscription across concurrent sessions (docs/protocol.md#runs, docs/protocol.md#stream-runs, docs/protocol.md#event-subscription).
import { until } from "../support/until.ts";
import { untilSubscribed } from "../support/subscription.ts";
import { expect, test } from "bun:test";
import { DaemonError } from "../../src/protocol/client.ts";
import { AgentEventKind, type AgentEventMsg, type StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { sessionLines } from "../support/session-files.ts";
import { join } from "node:path";

const t = useLlmDaemon("openai");

const question = {
  question: "Which colour should the button be?",
  header: "Colour",
  options: [
    { label: "red", description: "bold" },
    { label: "blue", description: "calm" },
  ],
  multi_select: false,
};
const askCall = (id: string) => ({ id, name: "ask_user", arguments: JSON.stringify({ questions: [question] }) });

test("ask_user: the question reaches the stream, ReplyToAsk on another connection answers it", async () => {
  t.env.fake.script({ toolCalls: [askCall("a1")] }, { text: "blue it is" });
  const events: StreamEvent["event"][] = [];
  let session = 0n;
  for await (const e of t.client.stream({ agent: "crab", content: "design", sender: "asker" })) {
    events.push(e.event);
    if (e.event.case === "start") session = e.event.value.session;
    if (e.event.case === "askUser") {
      expect(e.event.value.questions[0]).toMatchObject({ question: question.question, header: "Colour", multiSelect: false });
      expect(e.event.value.questions[0].options.map((o) => o.label)).toEqual(["red", "blue"]);
      const other = await t.env.daemon.client();
      await other.replyToAsk(session, JSON.stringify({ [question.question]: "blue" }));
      await other.close();
    }
  }
  const kinds = events.map((e) => e.case);
  expect(kinds.indexOf("askUser")).toBe(kinds.lastIndexOf("toolStart") + 1); // right after the full tool_start
  const result = events.find((e) => e.case === "toolResult")!;
  expect(result.case === "toolResult" && result.value).toMatchObject({ callId: "a1", isError: false, output: JSON.stringify({ [question.question]: "blue" }) });
  expect(events.at(-1)!.case).toBe("end");
});

test("ReplyToAsk for a session with no pending question is 404", async () => {
  const r = await t.client.send({ agent: "crab", content: "hi", sender: "nobody-asks" });
  const err = await t.client.replyToAsk(r.session, "x").catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DaemonError);
  expect(err).toMatchObject({ code: 404, message: `no pending ask_user for session ${r.session}` });
});

test("ask_user in a Send run fails: there is no stream to carry the question", async () => {
  t.env.fake.script({ toolCalls: [askCall("s1")] }, { text: "fine" });
  await t.client.send({ agent: "crab", content: "ask me", sender: "sender-mode" });
  const tool = t.env.fake.requests
    .filter((r) => r.body?.stream)
    .at(-1)!
    .body.messages.find((m: { role: string }) => m.role === "tool");
  expect(tool.content).toBe("ask_user is only available in streaming mode");
});

test("a question stays pending when its client disconnects, until a reply arrives", async () => {
  t.env.fake.script({ toolCalls: [askCall("d1")] });
  const leaver = await t.env.daemon.client();
  let session = 0n;
  for await (const e of leaver.stream({ agent: "crab", content: "ask then leave", sender: "leaver" })) {
    if (e.event.case === "start") session = e.event.value.session;
    if (e.event.case === "askUser") break;
  }
  await leaver.close();
  await Bun.sleep(50);
  expect((await t.client.sessions()).find((s) => s.id === session)?.active).toBe(true);
  await t.client.replyToAsk(session, "late answer");
  for (let i = 0; i < 100 && (await t.client.sessions()).find((s) => s.id === session)?.active; i++) await Bun.sleep(20);
  expect((await t.client.sessions()).find((s) => s.id === session)?.active).toBe(false);
  // The answer became the tool's result and is on disk; with nobody listening, the run ended there.
  const lines = sessionLines(join(t.env.daemon.home, "sessions"), "crab_leaver_");
  expect(lines.at(-1)).toEqual({ role: "tool", content: "late answer", name: "ask_user", tool_call_id: "d1" });
});

test("Kill cancels a pending ask_user, kills a running bash command and ends the run", async () => {
  // No second model round: the killed run stops after its tools.
  t.env.fake.script({ toolCalls: [askCall("k1"), { id: "k2", name: "bash", arguments: JSON.stringify({ command: "sleep 30" }) }] });
  const requests = t.env.fake.requests.length;
  let interrupted = false;
  const c = await t.env.daemon.client();
  let session = 0n;
  const results: { callId: string; output: string; isError: boolean }[] = [];
  for await (const e of c.stream({ agent: "crab", content: "ask and sleep", sender: "killed" })) {
    if (e.event.case === "start") session = e.event.value.session;
    if (e.event.case === "askUser") await t.client.kill(session);
    if (e.event.case === "toolResult") results.push(e.event.value);
    if (e.event.case === "end") interrupted = e.event.value.interrupted;
  }
  await c.close();
  expect(interrupted).toBe(true);
  expect(t.env.fake.requests.slice(requests).filter((r) => r.body?.stream === true)).toHaveLength(1);
  const byId = Object.fromEntries(results.map((r) => [r.callId, r]));
  expect(byId.k1).toMatchObject({ isError: true, output: "ask_user cancelled: reply channel closed" });
  expect(byId.k2.isError).toBe(true);
  expect(JSON.parse(byId.k2.output).exit_code).toBe(-1);
});

test("a subscriber sees every event of two concurrent sessions, tagged with agent and session", async () => {
  const subscriber = await t.env.daemon.client();
  const seen: AgentEventMsg[] = [];
  const subscription = (async () => {
    for await (const e of subscriber.subscribeEvents()) seen.push(e);
  })().catch(() => {});
  await t.client.createAgent("second", JSON.stringify({ description: "another agent" }));
  await untilSubscribed(t.client, seen);
  t.env.fake.script(
    // The tools sleep so that both sessions' first requests take the two tool turns.
    {
      toolCalls: [{ id: "e1", name: "bash", arguments: JSON.stringify({ command: "echo one; sleep 0.3" }) }],
      usage: { prompt: 1500, completion: 20, cacheHit: 1000 },
    },
    { toolCalls: [{ id: "e2", name: "bash", arguments: JSON.stringify({ command: "echo two; sleep 0.3\necho more" }) }] },
  );
  const c1 = await t.env.daemon.client();
  const c2 = await t.env.daemon.client();
  const runs = [
    (async () => {
      for await (const e of c1.stream({ agent: "crab", content: "first", sender: "ev1" })) if (e.event.case === "start") return e.event.value.session;
    })(),
    (async () => {
      for await (const e of c2.stream({ agent: "second", content: "second", sender: "ev2" })) if (e.event.case === "start") return e.event.value.session;
    })(),
  ];
  // Both streams are read to their end by a second pass below.
  const sessions = await Promise.all(runs);
  await until(() => sessions.every((s) => seen.some((e) => e.session === s && e.kind === AgentEventKind.DONE)), {
    what: "both runs' events at the subscriber",
  });
  for (const [agent, session] of [
    ["crab", sessions[0]],
    ["second", sessions[1]],
  ] as const) {
    const mine = seen.filter((e) => e.session === session);
    expect(mine.every((e) => e.agent === agent)).toBe(true);
    const kinds = mine.map((e) => e.kind);
    expect(kinds).toContain(AgentEventKind.TEXT_DELTA);
    expect(kinds.filter((k) => k === AgentEventKind.TOOL_START)).toHaveLength(1);
    expect(kinds.at(-1)).toBe(AgentEventKind.DONE);
    const start = mine.find((e) => e.kind === AgentEventKind.TOOL_START)!;
    expect(start.toolCalls[0].name).toBe("bash");
    expect(start.content).toMatch(/^bash\(echo (one|two); sleep 0.3\)$/);
    const result = mine.find((e) => e.kind === AgentEventKind.TOOL_RESULT)!;
    expect(result.content).toMatch(/^\d+ms$/);
    expect(JSON.parse(result.toolOutput).exit_code).toBe(0);
    expect(result.toolIsError).toBe(false);
    expect(mine.every((e) => !Number.isNaN(Date.parse(e.timestamp)) && e.timestamp.endsWith("Z"))).toBe(true);
    const text = mine
      .filter((e) => e.kind === AgentEventKind.TEXT_DELTA)
      .map((e) => e.content)
      .join("");
    expect(text).toBe("ok");
  }
  const dones = seen.filter((e) => e.kind === AgentEventKind.DONE).map((e) => e.content);
  expect(dones).toContain("fake-model 1.5k in (1.0k cached) / 25 out");
  for (const c of [c1, c2, subscriber]) await c.close();
  await subscription;
});

test("a subscriber that never reads is left behind without slowing runs", async () => {
  const { RawConnection, frame, lenField } = await import("../support/raw-proto.ts");
  const stuck = await RawConnection.open({ path: t.env.daemon.socket });
  stuck.write(frame(lenField(34, []))); // SubscribeEvents, then never read a byte
  await Bun.sleep(50);
  const long = "word ".repeat(4000); // thousands of text deltas per run
  for (let i = 0; i < 5; i++) {
    t.env.fake.script({ text: long });
    const r = await t.client.send({ agent: "crab", content: `flood ${i}`, sender: "flood" });
    expect(r.content).toBe(long);
  }
  await t.client.ping();
  stuck.destroy();
  // 20,000 streamed deltas take ~3-5 s on a loaded 2-core machine; a blocked run would hang for good, not take 6 s.
}, 20_000);
