// Idle sessions leave memory and come back from their file on the next message
// ([system.sessions] unload_after), keeping their ids: clients see no difference.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionTable } from "../../src/runtime/sessions.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";

const t = useLlmDaemon("openai", { extraConfig: "\n[system.sessions]\nunload_after = 1\n" });

/** The deadline of each wait here: an unload takes up to unload_after plus a sweep; the index one up to 5 s more. */
const wait = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => until(probe, { what, timeoutMs: 20_000 });

test("only sessions idle for the limit, with no run holding them, are unloaded; they reload from the file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-unload-"));
  try {
    const table = new SessionTable(dir);
    const idle = await table.create("crab", "a");
    const busy = await table.create("crab", "b");
    const fresh = await table.create("crab", "c");
    const release = await busy.lock.lock();
    const now = Date.now();
    idle.lastActive = busy.lastActive = now - 5000;
    expect(table.unloadIdle(1000, now)).toBe(1);
    expect([idle.loaded, busy.loaded, fresh.loaded]).toEqual([false, true, true]);
    expect(idle.messageCount).toBe(0);
    expect(() => idle.history).toThrow("unloaded");
    await idle.ensureLoaded();
    expect(idle.history).toEqual([]);
    release();
    // The reloaded one counts as just used; the released one is idle.
    expect(table.unloadIdle(1000, now)).toBe(1);
    expect(busy.loaded).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an unloaded session keeps its id and is read back from its file on the next message", async () => {
  const { client, env } = t;
  const first = await client.send({ agent: "crab", content: "the code word is alpha", sender: "unload-user" });
  // Wait for the background title, which renames the file, so the edit below hits the final name.
  const before = await wait("the title", async () => (await client.sessions()).find((s) => s.id === first.session && s.title !== "") ?? undefined);
  // Unloaded, it leaves the daemon: no longer listed.
  await wait("the unload", async () => ((await client.sessions()).some((s) => s.id === first.session) ? undefined : true));

  // Proof that the next run reads the file, not a copy in memory: change the file while unloaded.
  const file = (await client.listConversations("crab", "unload-user"))[0].filePath;
  writeFileSync(file, readFileSync(file, "utf8").replace("the code word is alpha", "the code word is omega"));

  const second = await client.send({ agent: "crab", content: "what was it?", session: first.session });
  expect(second.session).toBe(first.session);
  const sent = JSON.stringify(env.fake.requests.filter((r) => r.body?.stream !== undefined).at(-1)!.body.messages);
  expect(sent).toContain("the code word is omega");
  expect(sent).not.toContain("alpha");
  expect(sent).toContain("what was it?");
  // Open again under its id, with its title and every message.
  const listed = (await client.sessions()).find((s) => s.id === first.session);
  expect(listed?.title).toBe(before.title);
  expect(listed?.messageCount).toBe(before.messageCount + 2n);
});

test("an unloaded conversation leaves nothing in the daemon, yet is found by search and resumed by its id, its identity and its file", async () => {
  const { client, env } = t;
  const log = join(env.daemon.home, "logs/daemon.log");
  const indexUnloads = () => readFileSync(log, "utf8").split("unloaded the idle conversation search index").length - 1;
  const sender = "unload-gone-from-memory";
  const first = await client.send({ agent: "crab", content: "remember the zanzibar harbour", sender });
  const other = await client.send({ agent: "crab", content: "an unrelated chat", sender: `${sender}-2` });
  // Once the background title has renamed the file (its meta line is written first).
  const titled = async () => (await client.listConversations("crab", sender)).find((c) => !c.filePath.endsWith("_1.jsonl"))?.filePath;
  const file = await wait("the title", titled);
  expect((await client.searchSessions({ query: "zanzibar", limit: 5 })).map((h) => h.filePath)).toEqual([file]);

  // Idle past unload_after: no session left in memory, and the search index dropped too.
  const searched = indexUnloads();
  await wait("no open session", async () => ((await client.getStats()).activeSessions === 0 ? true : undefined));
  await wait("the search index unload", () => (indexUnloads() > searched ? true : undefined));
  expect((await client.sessions()).map((s) => s.id)).not.toContain(first.session);

  // Search reads the index back and finds it where it was.
  const [hit] = await client.searchSessions({ query: "zanzibar", limit: 5 });
  expect(hit?.filePath).toBe(file);
  expect(hit?.match?.content).toContain("zanzibar");

  // By id: the same session, its history read from the file.
  const byId = await client.send({ agent: "crab", content: "which harbour?", session: first.session });
  expect(byId.session).toBe(first.session);
  expect(JSON.stringify(env.fake.requests.filter((r) => r.body?.stream !== undefined).at(-1)!.body.messages)).toContain("zanzibar");
  expect((await client.getStats()).activeSessions).toBe(1);

  // By identity (no id, no new_chat) and by file, once unloaded again: still that same session.
  await wait("the second unload", async () => ((await client.getStats()).activeSessions === 0 ? true : undefined));
  const byIdentity = await client.send({ agent: "crab", content: "and again?", sender });
  expect(byIdentity.session).toBe(first.session);
  await wait("the third unload", async () => ((await client.getStats()).activeSessions === 0 ? true : undefined));
  const byFile = await client.send({ agent: "crab", content: "once more", resumeFile: file.split("/").at(-1)! });
  expect(byFile.session).toBe(first.session);
  // Another identity's unloaded session is its own.
  expect((await client.send({ agent: "crab", content: "me?", sender: `${sender}-2` })).session).toBe(other.session);
}, 60_000); // the search index is looked at every SEARCH_INDEX_SAVE_MS (5 s)

test("killing an unloaded session forgets its id", async () => {
  const { client } = t;
  const first = await client.send({ agent: "crab", content: "short lived", sender: "unload-killed" });
  await wait("the unload", async () => ((await client.sessions()).some((s) => s.id === first.session) ? undefined : true));
  await client.kill(first.session);
  await expect(client.send({ agent: "crab", content: "still there?", session: first.session })).rejects.toThrow("not found");
  await expect(client.kill(first.session)).rejects.toThrow("not found");
});

test("a session whose file is gone while unloaded ends its next run with an error naming <home>, not the home's path", async () => {
  const { client, env } = t;
  const first = await client.send({ agent: "crab", content: "soon forgotten", sender: "unload-gone" });
  await wait("the title", async () => (await client.sessions()).find((s) => s.id === first.session && s.title !== "") ?? undefined);
  await wait("the unload", async () => ((await client.sessions()).some((s) => s.id === first.session) ? undefined : true));
  rmSync((await client.listConversations("crab", "unload-gone"))[0].filePath);

  let error = "";
  for await (const e of client.stream({ agent: "crab", content: "still there?", session: first.session })) {
    if (e.event.case === "end") error = e.event.value.error;
  }
  expect(error).toStartWith(`session ${first.session} cannot be reloaded`);
  expect(error).toContain("<home>");
  expect(error).not.toContain(env.daemon.home);
});

test("a title that lands after its session was unloaded renames the file the session is opened from, and keeps the meta", async () => {
  const { client, env } = t;
  const sender = "unload-slow-title";
  env.fake.title("Slow Title", 2500);
  try {
    const first = await client.send({ agent: "crab", content: "name this later", sender });
    const createdAt = JSON.parse(readFileSync((await client.listConversations("crab", sender))[0].filePath, "utf8").split("\n")[0]).created_at;
    // Unloaded while the title request is still out.
    await wait("the unload", async () => ((await client.sessions()).some((s) => s.id === first.session) ? undefined : true));
    const titled = async () => (await client.listConversations("crab", sender)).find((c) => c.filePath.endsWith("_slow-title.jsonl"))?.filePath;
    const file = await wait("the title", titled);
    expect(JSON.parse(readFileSync(file, "utf8").split("\n")[0])).toMatchObject({ title: "Slow Title", created_at: createdAt, created_by: sender });
    const again = await client.send({ agent: "crab", content: "still you?", session: first.session });
    expect(again.session).toBe(first.session);
    expect(readFileSync(file, "utf8")).toContain("still you?");
  } finally {
    env.fake.title("Test Chat");
  }
}, 30_000);
