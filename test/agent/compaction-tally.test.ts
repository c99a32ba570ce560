// Auto-compaction over many turns of one conversation (docs/agent-loop.md#when-it-runs): the
// estimate is kept as a running tally of the working history, and the
// injected context (replaced before every run) must count once, never pile
// up. Checked against the requests the model really received, through a
// real daemon and the real SDK.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

const THRESHOLD = 300; // tokens: 1,200 bytes

let env: LlmDaemon;
let client: Client;
beforeAll(async () => {
  env = await startLlmDaemon("openai");
  client = await env.daemon.client();
  await client.createAgent("tally", JSON.stringify({ compact_threshold: THRESHOLD }));
});
afterAll(async () => {
  await client.close();
  await env.stop();
  cleanup(env.daemon.home);
});

const streamed = () => env.fake.requests.filter((r) => r.body?.stream === true);
const bytes = (s: unknown) => (typeof s === "string" ? Buffer.byteLength(s, "utf8") : 0);

/** One turn; whether it compacted, and the estimate of the history it left (what the model got + its answer). */
async function turn(n: number, session?: bigint) {
  const answer = `answer ${n}: ${"é".repeat(40)} and some more words to make it weigh`;
  env.fake.script({ text: answer });
  const before = streamed().length;
  let compacted = false;
  let id = session;
  for await (const e of client.stream({ agent: "tally", content: `question ${n}, rather short`, sender: "tally", session })) {
    if (e.event.case === "start") id = e.event.value.session;
    if (e.event.case === "chunk" && e.event.value.content.includes("[context compacted]")) compacted = true;
  }
  expect(streamed().length).toBe(before + 1);
  const messages: { role: string; content: unknown }[] = streamed().at(-1)!.body.messages;
  const sent = messages.filter((m) => m.role !== "system").reduce((sum, m) => sum + bytes(m.content), 0);
  return { session: id!, compacted, estimate: Math.floor((sent + bytes(answer)) / 4), messages };
}

test("compaction fires exactly when the whole working history crosses the threshold, turn after turn", async () => {
  const outcomes: { compacted: boolean; estimate: number }[] = [];
  let session: bigint | undefined;
  for (let n = 0; n < 16; n++) {
    const t = await turn(n, session);
    session = t.session;
    // The injected context is in every request once: replaced, not accumulated.
    expect(t.messages.filter((m) => typeof m.content === "string" && m.content.startsWith("<environment>"))).toHaveLength(1);
    outcomes.push({ compacted: t.compacted, estimate: t.estimate });
  }
  for (const o of outcomes) expect(o.compacted).toBe(o.estimate > THRESHOLD);
  // Both sides were seen, and the history kept growing from the summary after a compaction.
  const first = outcomes.findIndex((o) => o.compacted);
  expect(first).toBeGreaterThan(2);
  expect(outcomes.filter((o) => o.compacted).length).toBeGreaterThanOrEqual(2);
  expect(outcomes[first + 1].compacted).toBe(false);
  expect(outcomes[first + 1].estimate).toBeLessThan(outcomes[first].estimate);
});

test("a session reloaded from its file counts its history afresh", async () => {
  const a = await turn(100);
  await client.kill(a.session);
  // A new session on the same file (the identity's newest): its history comes from disk.
  let t = await turn(101);
  expect(t.session).not.toBe(a.session);
  expect(t.compacted).toBe(t.estimate > THRESHOLD);
  for (let n = 102; n < 112 && !t.compacted; n++) {
    t = await turn(n, t.session);
    expect(t.compacted).toBe(t.estimate > THRESHOLD);
  }
  expect(t.compacted).toBe(true);
});
