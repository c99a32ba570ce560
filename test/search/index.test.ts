// The conversation index on real files: catching up after changes made while
// it was not running, a hostile or broken snapshot, and runs that append
// before it finished loading.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConversationIndex, INDEXED_BYTES } from "../../src/runtime/search/conversation-index.ts";
import { newSessionMeta } from "../../src/session/jsonl.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const home = mkdtempSync(join(tmpdir(), "crabtalk-index-"));
  dirs.push(home);
  const sessions = join(home, "sessions");
  mkdirSync(sessions);
  const write = (name: string, ...messages: [string, string][]) =>
    writeFileSync(
      join(sessions, name),
      [JSON.stringify(newSessionMeta(name.split("_")[0], name.split("_")[1])), ...messages.map(([role, content]) => JSON.stringify({ role, content }))].join(
        "\n",
      ) + "\n",
    );
  const warnings: string[] = [];
  const open = () => new ConversationIndex(sessions, join(home, "index/conversations.json"), { warn: (m) => warnings.push(m) });
  return { home, sessions, write, open, warnings, snapshot: join(home, "index/conversations.json") };
}

const files = async (index: ConversationIndex, query: string) => (await index.search(query, { limit: 10 })).map((h) => h.filePath.split("/").at(-1));

test("a broken snapshot is reported and rebuilt from the files", async () => {
  const t = setup();
  t.write("crab_user_1.jsonl", ["user", "the albatross migration"]);
  mkdirSync(join(t.home, "index"));
  writeFileSync(t.snapshot, "{ not json");
  const index = t.open();
  expect(await files(index, "albatross")).toEqual(["crab_user_1.jsonl"]);
  expect(t.warnings.join("\n")).toContain("unreadable, rebuilding");
  expect(JSON.parse(readFileSync(t.snapshot, "utf8")).version).toBe(1);
});

test("snapshot entries naming files outside sessions/ or gone are dropped", async () => {
  const t = setup();
  mkdirSync(join(t.home, "index"));
  const entry = (name: string) => ({ name, agent: "crab", sender: "user", title: "", size: 1, mtimeMs: 1, updatedMs: 1, messages: [["user", "stolen heron"]] });
  writeFileSync(t.snapshot, JSON.stringify({ version: 1, files: [entry("../../etc/passwd"), entry("crab_user_9.jsonl")] }));
  expect(await files(t.open(), "heron")).toEqual([]);
});

test("messages appended before the index loaded are found once it has", async () => {
  const t = setup();
  t.write("crab_user_1.jsonl", ["user", "first words"]);
  const index = t.open();
  const path = join(t.sessions, "crab_user_1.jsonl");
  writeFileSync(path, readFileSync(path, "utf8") + JSON.stringify({ role: "assistant", content: "the kestrel answer" }) + "\n");
  index.appended(path, newSessionMeta("crab", "user"), [{ role: "assistant", content: "the kestrel answer" }]);
  const hits = await index.search("kestrel", { limit: 5 });
  expect(hits).toHaveLength(1);
  expect(hits[0].match).toEqual({ role: "assistant", content: "the kestrel answer" });
  expect(hits[0].before).toEqual({ role: "user", content: "first words" });
});

test("renames and removals follow the file; a restart after them agrees", async () => {
  const t = setup();
  t.write("crab_user_1.jsonl", ["user", "puffin colony"], ["assistant", "puffins nest on cliffs"]);
  const index = t.open();
  await index.load();
  const from = join(t.sessions, "crab_user_1.jsonl");
  const to = join(t.sessions, "crab_user_1_puffins.jsonl");
  renameSync(from, to);
  index.renamed(from, to, "Puffins");
  const [hit] = await index.search("puffin", { limit: 1 });
  expect(hit).toMatchObject({ filePath: to, title: "Puffins" });
  await index.save();
  expect(await files(t.open(), "puffin")).toEqual(["crab_user_1_puffins.jsonl"]);
  rmSync(to);
  index.removed(to);
  expect(await files(index, "puffin")).toEqual([]);
});

test("a huge query is answered; filters by agent and sender apply", async () => {
  const t = setup();
  t.write("crab_user_1.jsonl", ["user", "osprey fishing"]);
  t.write("reviewer_alice_1.jsonl", ["user", "osprey review"]);
  const index = t.open();
  const huge = `osprey ${"word ".repeat(50_000)}`;
  expect((await files(index, huge)).sort()).toEqual(["crab_user_1.jsonl", "reviewer_alice_1.jsonl"]);
  expect((await index.search("osprey", { agent: "crab", limit: 5 })).map((h) => h.agent)).toEqual(["crab"]);
  expect((await index.search("osprey", { sender: "alice", limit: 5 })).map((h) => h.sender)).toEqual(["alice"]);
});

test("a conversation the index did not know is read whole at its first append", async () => {
  const t = setup();
  const index = t.open();
  await index.load();
  // Copied into sessions/ after the index loaded, then continued by a run.
  t.write("crab_user_5.jsonl", ["user", "the old cormorant question"], ["assistant", "an old answer"]);
  const path = join(t.sessions, "crab_user_5.jsonl");
  writeFileSync(path, readFileSync(path, "utf8") + JSON.stringify({ role: "user", content: "a new grebe question" }) + "\n");
  index.appended(path, newSessionMeta("crab", "user"), [{ role: "user", content: "a new grebe question" }]);
  expect(await files(index, "cormorant")).toEqual(["crab_user_5.jsonl"]);
  expect(await files(index, "grebe")).toEqual(["crab_user_5.jsonl"]);
  const [hit] = await index.search("grebe", { limit: 1 });
  expect(hit.before).toEqual({ role: "assistant", content: "an old answer" });
});

test("an index dropped from memory after its idle limit finds the same, and what changed meanwhile, when searched again", async () => {
  const t = setup();
  t.write("crab_user_1.jsonl", ["user", "the osprey nest"], ["assistant", "on the cliff"]);
  t.write("crab_user_2.jsonl", ["user", "the osprey diet"]);
  const index = t.open();
  index.unloadAfter(60);
  const before = await index.search("osprey", { limit: 10 });
  expect(before).toHaveLength(2);
  // Not idle long enough: kept.
  expect(await index.unloadIfIdle(Date.now() + 1000)).toBe(false);
  expect(index.inMemory).toBe(true);
  expect(await index.unloadIfIdle(Date.now() + 61_000)).toBe(true);
  expect(index.inMemory).toBe(false);

  // While out of memory: an append, a rename, a new file, a deletion.
  const one = join(t.sessions, "crab_user_1.jsonl");
  writeFileSync(one, readFileSync(one, "utf8") + JSON.stringify({ role: "assistant", content: "a plover too" }) + "\n");
  index.appended(one, newSessionMeta("crab", "user"), [{ role: "assistant", content: "a plover too" }]);
  renameSync(join(t.sessions, "crab_user_2.jsonl"), join(t.sessions, "crab_user_2_diet.jsonl"));
  index.renamed(join(t.sessions, "crab_user_2.jsonl"), join(t.sessions, "crab_user_2_diet.jsonl"), "diet");
  t.write("crab_user_3.jsonl", ["user", "an osprey again and a plover"]);

  const after = await index.search("osprey", { limit: 10 });
  expect(index.inMemory).toBe(true);
  expect(after.map((h) => h.filePath.split("/").at(-1)).sort()).toEqual(["crab_user_1.jsonl", "crab_user_2_diet.jsonl", "crab_user_3.jsonl"]);
  const nest = after.find((h) => h.filePath.endsWith("crab_user_1.jsonl"))!;
  expect(nest).toEqual({ ...before.find((h) => h.filePath.endsWith("crab_user_1.jsonl"))!, score: nest.score, date: nest.date });
  expect((await files(index, "plover")).sort()).toEqual(["crab_user_1.jsonl", "crab_user_3.jsonl"]);
  expect(t.warnings).toEqual([]);
});

test("an index with changes it could not save stays in memory", async () => {
  const t = setup();
  t.write("crab_user_1.jsonl", ["user", "the grebe"]);
  writeFileSync(join(t.home, "index"), "a file where the snapshot directory should be");
  const index = t.open();
  index.unloadAfter(1);
  expect(await files(index, "grebe")).toEqual(["crab_user_1.jsonl"]);
  expect(await index.unloadIfIdle(Date.now() + 5000)).toBe(false);
  expect(index.inMemory).toBe(true);
  expect(t.warnings.join("\n")).toContain("could not save");
});

test("a conversation larger than the indexed window is indexed by its newest messages only, and its snapshot stays small", async () => {
  const t = setup();
  const pad = "z".repeat(4_800);
  const messages: [string, string][] = [["user", `the aardvark opening ${pad}`]];
  // About 10 MB: five times what the index reads of one conversation.
  for (let i = 0; i < 2_000; i++) messages.push(["assistant", `filler ${i} ${pad}`]);
  messages.push(["user", "the zebra closing"]);
  t.write("crab_big_1.jsonl", ...messages);
  t.write("crab_small_1.jsonl", ["user", "an aardvark in a small one"]);
  const index = t.open();
  expect(await files(index, "zebra")).toEqual(["crab_big_1.jsonl"]);
  // The oldest message is past the window: only the small conversation has it.
  expect(await files(index, "aardvark")).toEqual(["crab_small_1.jsonl"]);
  await index.save();
  expect(readFileSync(t.snapshot).length).toBeLessThan(2 * INDEXED_BYTES);
});
