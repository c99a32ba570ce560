// A title renames a conversation's file while the index may still be reading
// it under its first name (a run appended just before the title came): the
// index must end up with the new name only, never a hit on a file that is
// gone. Where the rename lands in that read is up to the file system's
// threads, so this tries many landing points; whatever the timing, no old
// name may remain (on a busy machine one did: issue 18).
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConversationIndex } from "../../src/runtime/search/conversation-index.ts";
import { newSessionMeta } from "../../src/session/jsonl.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Keeps this thread busy while the file system's threads finish a step of the read. */
const spin = (ms: number) => {
  for (const end = performance.now() + ms; performance.now() < end; );
};

function setup() {
  const home = mkdtempSync(join(tmpdir(), "crabtalk-rename-race-"));
  dirs.push(home);
  const sessions = join(home, "sessions");
  mkdirSync(sessions);
  return { sessions, index: new ConversationIndex(sessions, join(home, "index/conversations.json")) };
}

test("a rename that lands while the old name is being read leaves only the new name in the index", async () => {
  const { sessions, index } = setup();
  await index.load();
  const renamedTo: string[] = [];
  // The rename lands 0 to 7 turns after the append: before, during and after the read of the old name.
  for (let i = 0; i < 64; i++) {
    const meta = newSessionMeta("crab", `u${i}`);
    const from = join(sessions, `crab_u${i}_1.jsonl`);
    const message = { role: "user" as const, content: `the zanzibar harbour ${i}` };
    writeFileSync(from, `${JSON.stringify(meta)}\n${JSON.stringify(message)}\n`);
    index.appended(from, meta, [message]);
    for (let k = 0; k < i % 8; k++) {
      await Promise.resolve();
      spin(1);
      await turn();
    }
    spin(1);
    const to = join(sessions, `crab_u${i}_1_harbour.jsonl`);
    renameSync(from, to);
    index.renamed(from, to, "Harbour");
    renamedTo.push(to);
  }
  const hits = await index.search("zanzibar", { limit: 1000 });
  expect(hits.map((h) => h.filePath).sort()).toEqual(renamedTo.sort());
});

test("a deletion that lands while the file is being read leaves nothing of it in the index", async () => {
  const { sessions, index } = setup();
  await index.load();
  for (let i = 0; i < 64; i++) {
    const meta = newSessionMeta("crab", `u${i}`);
    const path = join(sessions, `crab_u${i}_1.jsonl`);
    const message = { role: "user" as const, content: `the zanzibar harbour ${i}` };
    writeFileSync(path, `${JSON.stringify(meta)}\n${JSON.stringify(message)}\n`);
    index.appended(path, meta, [message]);
    for (let k = 0; k < i % 8; k++) {
      await Promise.resolve();
      spin(1);
      await turn();
    }
    spin(1);
    rmSync(path);
    index.removed(path);
  }
  expect(await index.search("zanzibar", { limit: 1000 })).toEqual([]);
});
