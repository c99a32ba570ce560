// Idle sessions leave memory and come back from their file on the next message
// ([system.sessions] unload_after), keeping their ids: clients see no difference.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionTable } from "../../src/runtime/sessions.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const t = useLlmDaemon("openai", { extraConfig: "\n[system.sessions]\nunload_after = 1\n" });

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 20_000): Promise<T> {
  for (const end = Date.now() + ms; ; ) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

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
  const before = await until(async () => (await client.sessions()).find((s) => s.id === first.session && s.title !== "") ?? undefined, "the title");
  const log = join(env.daemon.home, "logs/daemon.log");
  await until(() => (readFileSync(log, "utf8").includes("unloaded idle sessions") ? true : undefined), "the unload");

  const listed = (await client.sessions()).find((s) => s.id === first.session);
  expect(listed?.messageCount).toBe(before.messageCount);
  // Proof that the next run reads the file, not a copy in memory: change the file while unloaded.
  const file = (await client.listConversations("crab", "unload-user"))[0].filePath;
  writeFileSync(file, readFileSync(file, "utf8").replace("the code word is alpha", "the code word is omega"));

  const second = await client.send({ agent: "crab", content: "what was it?", session: first.session });
  expect(second.session).toBe(first.session);
  const sent = JSON.stringify(env.fake.requests.filter((r) => r.body?.stream !== undefined).at(-1)!.body.messages);
  expect(sent).toContain("the code word is omega");
  expect(sent).not.toContain("alpha");
  expect(sent).toContain("what was it?");
});

test("a session whose file is gone while unloaded ends its next run with an error naming <home>, not the home's path", async () => {
  const { client, env } = t;
  const first = await client.send({ agent: "crab", content: "soon forgotten", sender: "unload-gone" });
  await until(async () => (await client.sessions()).find((s) => s.id === first.session && s.title !== "") ?? undefined, "the title");
  const log = join(env.daemon.home, "logs/daemon.log");
  const unloads = () => readFileSync(log, "utf8").split("unloaded idle sessions").length;
  await Bun.sleep(1100); // idle for unload_after: the next sweep unloads it
  const before = unloads();
  await until(() => (unloads() > before ? true : undefined), "the unload");
  rmSync((await client.listConversations("crab", "unload-gone"))[0].filePath);

  let error = "";
  for await (const e of client.stream({ agent: "crab", content: "still there?", session: first.session })) {
    if (e.event.case === "end") error = e.event.value.error;
  }
  expect(error).toStartWith(`session ${first.session} cannot be reloaded`);
  expect(error).toContain("<home>");
  expect(error).not.toContain(env.daemon.home);
});
