// Search across conversations against a real daemon: 1,000 conversation files
// written by the test, `crabtalk history search`, a message appended by a run
// found at once, and a restart that reads the snapshot instead of every file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { runCli } from "../support/cli.ts";
import { codename, writeCorpus, type Corpus } from "../support/conversation-corpus.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

const home = tempHome();
const sessions = join(home, "sessions");
let corpus: Corpus;
let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;
const config = () => `[provider.fake]
api_key = "test-key"
base_url = "${fake.url}"
models = ["fake-model"]

[system.crab]
model = "fake-model"
`;

beforeAll(async () => {
  corpus = writeCorpus(sessions, 1000);
  fake = await startFakeOpenAI();
  daemon = await startDaemon({ home, config: config() });
  client = await daemon.client();
});

afterAll(async () => {
  await client?.close();
  await daemon?.stop();
  await fake?.stop();
  cleanup(home);
});

test("every corpus query finds its conversation first, with the match and its neighbours", async () => {
  expect(corpus.queries.length).toBe(20);
  for (const { query, file } of corpus.queries) {
    const hits = await client.searchSessions({ query, limit: 5 });
    expect(basename(hits[0]?.filePath ?? "")).toBe(file);
    expect(hits[0].match?.content).toContain(query.split(" ")[1]);
    // One hit per conversation, best first.
    expect(new Set(hits.map((h) => h.filePath)).size).toBe(hits.length);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  }
  const [hit] = await client.searchSessions({ query: codename(3), limit: 1 });
  // Conversation 4 has its codename in message 4 (index 3): an assistant message between two user messages.
  expect(hit).toMatchObject({ title: "conversation 4", agent: "crab", sender: "bob", match: { role: "assistant" } });
  expect(hit.before?.role).toBe("user");
  expect(hit.after?.role).toBe("user");
});

test("crabtalk history search prints the hits; --agent, --sender and --limit filter", async () => {
  const target = corpus.queries[1];
  const r = await runCli(["history", "search", ...target.query.split(" ")], { home });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout.split("\n")[0]).toMatch(new RegExp(`^1\\. ${target.file.replace(".", "\\.")}  \\S+  conversation \\d+$`));
  expect(r.stdout).toMatch(/^ {2}> (user|assistant): /m);

  const json = await runCli(["history", "search", "--json", "--agent", "reviewer", "--sender", "alice", "--limit", "3", "deploy"], { home });
  const hits = JSON.parse(json.stdout);
  expect(hits.length).toBe(3);
  for (const h of hits) expect(basename(h.file_path)).toMatch(/^reviewer_alice_\d+\.jsonl$/);

  const none = await runCli(["history", "search", "nothingmatchesthisword"], { home });
  expect(none.stdout).toBe("no matches\n");
  const bad = await runCli(["history", "search", "--limit", "0", "x"], { home });
  expect(bad.code).not.toBe(0);
  await expect(client.searchSessions({ query: "  " })).rejects.toMatchObject({ code: 400 });
});

test("a message a run appends is found at once, without a restart", async () => {
  fake.script({ text: "the quokkaplan is ready for review" });
  await client.send({ agent: "crab", content: "please draft the quokkaplan", sender: "carol", newChat: true });
  const hits = await client.searchSessions({ query: "quokkaplan", limit: 5 });
  expect(hits).toHaveLength(1);
  expect(basename(hits[0].filePath)).toMatch(/^crab_carol_1/);
  expect(hits[0].match?.role).toBe("user");
  expect(hits[0].after).toMatchObject({ role: "assistant", content: "the quokkaplan is ready for review" });
});

test("a deleted conversation is no longer found", async () => {
  const target = corpus.queries[2];
  await client.deleteConversation(join(sessions, target.file));
  const hits = await client.searchSessions({ query: target.query, limit: 3 });
  expect(hits.map((h) => basename(h.filePath))).not.toContain(target.file);
});

test("after a restart the snapshot is used: unchanged files are not read again, changed ones are", async () => {
  await client.close();
  await daemon.stop();
  const snapshot = join(home, "index/conversations.json");
  expect(existsSync(snapshot)).toBe(true);
  // Same size and mtime, other text: only a re-read could notice.
  const quiet = join(sessions, corpus.queries[3].file);
  const { mtime, atime } = statSync(quiet);
  const word = codename(150);
  writeFileSync(quiet, readFileSync(quiet, "utf8").replace(word, "z".repeat(word.length)));
  utimesSync(quiet, atime, mtime);
  // A changed file (appended while the daemon was down) is read again.
  const changed = join(sessions, corpus.queries[4].file);
  appendFileSync(changed, `${JSON.stringify({ role: "user", content: "remember the wombatrota" })}\n`);
  // A symlink posing as a conversation is never followed.
  const outside = join(home, "outside.txt");
  writeFileSync(
    outside,
    `${JSON.stringify({ agent: "crab", created_by: "x", created_at: "2026-01-01T00:00:00Z" })}\n{"role":"user","content":"secretplatypus"}\n`,
  );
  symlinkSync(outside, join(sessions, "crab_mallory_1.jsonl"));

  daemon = await startDaemon({ home, config: config() });
  client = await daemon.client();
  expect(basename((await client.searchSessions({ query: word, limit: 1 }))[0]?.filePath ?? "")).toBe(corpus.queries[3].file);
  expect(basename((await client.searchSessions({ query: "wombatrota", limit: 1 }))[0]?.filePath ?? "")).toBe(corpus.queries[4].file);
  expect(await client.searchSessions({ query: "quokkaplan", limit: 1 })).toHaveLength(1);
  expect(await client.searchSessions({ query: "secretplatypus", limit: 1 })).toHaveLength(0);
});
