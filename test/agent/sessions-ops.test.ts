// Sessions and conversations over the protocol (docs/protocol.md,
// docs/sessions.md): resolution errors, Sessions/Kill, conversations, path
// confinement, resume_file, serialisation within a session.
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { daemonError } from "../support/daemon-error.ts";
import { historyOf } from "../support/session-files.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";

const t = useLlmDaemon("openai");
const sessionsDir = () => join(t.env.daemon.home, "sessions");

/** Waits until the background title job has titled the session and renamed its file. */
async function titled(session: bigint): Promise<void> {
  await until(
    async () => {
      const info = (await t.client.sessions()).find((s) => s.id === session);
      return !!info?.title && (await t.client.listConversations(info.agent, info.createdBy)).some((f) => f.title !== "");
    },
    { what: `the title of session ${session}` },
  );
}

/** The body of the last chat request (streamed), not of a background title request that may land after it. */
const lastChatBody = () => t.env.fake.requests.filter((r) => r.body?.stream === true).at(-1)!.body;

test("an unknown agent is 404 for Send and for Stream (one ErrorMsg, no start)", async () => {
  const e = await daemonError(t.client.send({ agent: "nobody", content: "hi" }));
  expect(e.code).toBe(404);
  expect(e.message).toBe("agent 'nobody' not registered");
  const frames: string[] = [];
  const s = await daemonError(
    (async () => {
      for await (const ev of t.client.stream({ agent: "nobody", content: "hi" })) frames.push(ev.event.case ?? "");
    })(),
  );
  expect(s.code).toBe(404);
  expect(frames).toEqual([]);
});

test("an explicit session that is not open is 404 for Send and Stream", async () => {
  const e = await daemonError(t.client.send({ agent: "crab", content: "hi", session: 9999n }));
  expect(e).toMatchObject({ code: 404, message: "session 9999 not found" });
  const s = await daemonError(
    (async () => {
      for await (const _ of t.client.stream({ agent: "crab", content: "x", session: 9999n }));
    })(),
  );
  expect(s.code).toBe(404);
});

test("Sessions lists open sessions; Kill forgets one and a second Kill is 404", async () => {
  const r = await t.client.send({ agent: "crab", content: "hello", sender: "lister" });
  const listed = (await t.client.sessions()).find((s) => s.id === r.session)!;
  expect(listed).toMatchObject({ agent: "crab", createdBy: "lister", active: false });
  expect(listed.messageCount).toBeGreaterThanOrEqual(2n);
  await t.client.kill(r.session);
  expect((await t.client.sessions()).some((s) => s.id === r.session)).toBe(false);
  expect((await daemonError(t.client.kill(r.session))).code).toBe(404);
  // A later resume loads the newest file again, into a new id, with its history.
  const again = await t.client.send({ agent: "crab", content: "back", sender: "lister" });
  expect(again.session).not.toBe(r.session);
  expect(JSON.stringify(lastChatBody().messages)).toContain("hello");
});

test("ListConversations, GetConversationHistory and DeleteConversation work on files", async () => {
  t.env.fake.script({ text: "first answer" });
  await titled((await t.client.send({ agent: "crab", content: "convo question", sender: "Conv:Er" })).session);
  const all = await t.client.listConversations();
  const mine = await t.client.listConversations("crab", "Conv:Er");
  expect(mine).toHaveLength(1);
  expect(all.length).toBeGreaterThan(mine.length);
  const c = mine[0];
  expect(c).toMatchObject({ agent: "crab", sender: "conv-er", seq: 1, title: "test-chat", date: "Today" });
  expect(c.filePath).toEndWith("/crab_conv-er_1_test-chat.jsonl");
  expect(c.messageCount).toBe(2n);
  const history = await t.client.getConversationHistory(c.filePath);
  expect(history.agent).toBe("crab");
  expect(history.title).toBe("Test Chat");
  expect(history.messages.map((m) => [m.role, m.content])).toEqual([
    ["user", "convo question"],
    ["assistant", "first answer"],
  ]);
  await t.client.deleteConversation(c.filePath);
  expect(existsSync(c.filePath)).toBe(false);
  expect((await daemonError(t.client.deleteConversation(c.filePath))).code).toBe(404);
  expect((await daemonError(t.client.getConversationHistory(c.filePath))).code).toBe(404);
});

test("client-supplied file paths must stay inside sessions/: .., absolute paths and symlinks are 400", async () => {
  const outside = tempHome("crabtalk-outside-");
  const victim = join(outside, "victim.jsonl");
  writeFileSync(victim, '{"agent":"crab","created_by":"x","created_at":"2026-01-01T00:00:00Z","title":"","uptime_secs":0}\n');
  symlinkSync(victim, join(sessionsDir(), "crab_link_1.jsonl"));
  mkdirSync(join(outside, "dir"));
  for (const path of [
    "../config.toml",
    join(sessionsDir(), "..", "config.toml"),
    victim,
    "/etc/passwd",
    join(sessionsDir(), "crab_link_1.jsonl"),
    "crab_link_1.jsonl",
    "",
  ]) {
    for (const op of [
      () => t.client.getConversationHistory(path),
      () => t.client.deleteConversation(path),
      () => t.client.send({ agent: "crab", content: "x", resumeFile: path }),
    ]) {
      const e = await daemonError(op());
      expect(e.code).toBe(400);
    }
  }
  expect(existsSync(victim)).toBe(true);
  expect(existsSync(join(t.env.daemon.home, "config.toml"))).toBe(true);
  cleanup(outside);
});

test("resume_file loads a conversation into a session bound to that file", async () => {
  await titled((await t.client.send({ agent: "crab", content: "resumable", sender: "res", newChat: true })).session);
  const file = (await t.client.listConversations("crab", "res"))[0].filePath;
  const r = await t.client.send({ agent: "crab", content: "continuing", resumeFile: file });
  const again = await t.client.send({ agent: "crab", content: "still", resumeFile: "crab_res_1_test-chat.jsonl" });
  expect(again.session).toBe(r.session); // already open: reused, not loaded twice
  expect((await t.client.getConversationHistory(file)).messages.map((m) => m.content)).toContain("continuing");
  expect((await daemonError(t.client.send({ agent: "crab", content: "x", resumeFile: "crab_nobody_9.jsonl" }))).code).toBe(404);
});

test("cwd of a request becomes the session's working directory", async () => {
  const dir = tempHome("crabtalk-cwd-");
  await t.client.send({ agent: "crab", content: "where?", sender: "cwd-user", cwd: dir });
  expect(JSON.stringify(lastChatBody().messages)).toContain(`working_directory: ${dir}`);
  cleanup(dir);
});

test("sends to one session are serialised; different sessions run in parallel", async () => {
  const a = await t.client.send({ agent: "crab", content: "a0", sender: "par-a" });
  const b = await t.client.send({ agent: "crab", content: "b0", sender: "par-b" });
  const streamed = () => t.env.fake.requests.filter((r) => r.body?.stream === true).length;
  const base = streamed();
  // Each answer takes 1.5 s: long enough that a's second request, were it not held back, would be seen below.
  t.env.fake.script({ text: "slow 1", delayMs: 1500 }, { text: "slow 2", delayMs: 1500 }, { text: "slow 3", delayMs: 1500 });
  const c1 = await t.env.daemon.client();
  const c2 = await t.env.daemon.client();
  const c3 = await t.env.daemon.client();
  const same1 = c1.send({ agent: "crab", content: "a1", session: a.session });
  const same2 = c2.send({ agent: "crab", content: "a2", session: a.session });
  const other = c3.send({ agent: "crab", content: "b1", session: b.session });
  await until(() => streamed() - base >= 2, { what: "a request for each session" });
  // Two requests in flight (one per session), not three: a's second send waits its turn.
  expect(streamed() - base).toBe(2);
  const active = (await t.client.sessions()).filter((s) => s.active).map((s) => s.id);
  expect(active.sort()).toEqual([a.session, b.session].sort());
  await Promise.all([same1, same2, other]);
  const lines = (await historyOf(t.client, "crab", "par-a")).messages;
  expect(lines.map((m) => m.content).slice(-4)).toEqual(["a1", lines.at(-3)!.content, "a2", lines.at(-1)!.content]);
  expect(lines.at(-4)!.role).toBe("user");
  expect(lines.at(-3)!.role).toBe("assistant");
  // a's second request went out only once the first had its answer: it carries it.
  const a2 = t.env.fake.requests.find((r) => r.body?.stream === true && r.body.messages.at(-1)?.content === "a2");
  expect(JSON.stringify(a2?.body.messages)).toContain(lines.at(-3)!.content);
  for (const c of [c1, c2, c3]) await c.close();
});

test("GetStats counts open sessions", async () => {
  expect((await t.client.getStats()).activeSessions).toBe((await t.client.sessions()).length);
  expect(readdirSync(sessionsDir()).length).toBeGreaterThan(0);
});

test("a run's whole seconds are added to uptime_secs in the meta line, created_at kept", async () => {
  const first = await t.client.send({ agent: "crab", content: "quick", sender: "uptime" });
  await titled(first.session); // the background title rename is done before we read the file
  const path = (await t.client.listConversations("crab", "uptime"))[0].filePath;
  const metaOf = async () => JSON.parse((await Bun.file((await t.client.listConversations("crab", "uptime"))[0].filePath).text()).split("\n")[0]);
  const before = await metaOf();
  t.env.fake.script({ text: "slow", delayMs: 1100 });
  await t.client.send({ agent: "crab", content: "slow one", session: first.session });
  const after = await metaOf();
  expect(after.uptime_secs).toBeGreaterThanOrEqual(before.uptime_secs + 1);
  expect(after.created_at).toBe(before.created_at);
  expect((await t.client.sessions()).find((s) => s.id === first.session)!.aliveSecs).toBe(BigInt(after.uptime_secs));
  expect(path).toContain("crab_uptime_1");
});

test("sessions survive a reload under the same ids, with their history", async () => {
  const r = await t.client.send({ agent: "crab", content: "before reload", sender: "reloader" });
  const before = (await t.client.sessions()).map((s) => s.id);
  await t.client.reload();
  expect((await t.client.sessions()).map((s) => s.id)).toEqual(before);
  t.env.fake.script({ text: "after reload" });
  expect((await t.client.send({ agent: "crab", content: "after", session: r.session })).content).toBe("after reload");
  expect(JSON.stringify(t.env.fake.requests.filter((q) => q.body?.stream).at(-1)!.body.messages)).toContain("before reload");
});

test("concurrent first messages of one identity share one new session and one file", async () => {
  const clients = await Promise.all(Array.from({ length: 8 }, () => t.env.daemon.client()));
  const results = await Promise.all(clients.map((c, i) => c.send({ agent: "crab", content: `burst ${i}`, sender: "burst" })));
  expect(new Set(results.map((r) => r.session)).size).toBe(1);
  expect(readdirSync(sessionsDir()).filter((f) => f.startsWith("crab_burst_"))).toHaveLength(1);
  for (const c of clients) await c.close();
  // The same holds when one file is resumed by several requests at once.
  await titled(results[0].session);
  const file = (await t.client.listConversations("crab", "burst"))[0].filePath;
  await t.client.kill(results[0].session);
  const resumers = await Promise.all(Array.from({ length: 5 }, () => t.env.daemon.client()));
  const resumed = await Promise.all(resumers.map((c) => c.send({ agent: "crab", content: "again", resumeFile: file })));
  expect(new Set(resumed.map((r) => r.session)).size).toBe(1);
  for (const c of resumers) await c.close();
});
