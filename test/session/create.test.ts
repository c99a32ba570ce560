import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { createNextSessionFile, SEQ_LISTING_MS } from "../../src/session/create.ts";
import { appendMessages, loadSessionFile } from "../../src/session/file.ts";
import { newSessionMeta } from "../../src/session/jsonl.ts";
import { tempDir } from "./tmp.ts";

describe("createNextSessionFile", () => {
  test("creates the next seq with only the meta line, and leaves no temp file", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "crab_tg-1_4_old-title.jsonl"), "{}\n");
    const file = await createNextSessionFile(dir, newSessionMeta("crab", "TG:1"));
    expect(path.basename(file)).toBe("crab_tg-1_5.jsonl");
    expect(await loadSessionFile(file)).toMatchObject({ meta: { agent: "crab", created_by: "TG:1" }, messages: [] });
    expect(fs.readdirSync(dir).sort()).toEqual(["crab_tg-1_4_old-title.jsonl", "crab_tg-1_5.jsonl"]);
  });

  test("concurrent creations for one identity get distinct seqs and never clobber each other", async () => {
    const dir = tempDir();
    const files = await Promise.all(Array.from({ length: 20 }, () => createNextSessionFile(dir, newSessionMeta("crab", "user"))));
    expect(new Set(files).size).toBe(20);
    expect(files.map((f) => path.basename(f)).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `crab_user_${i + 1}.jsonl`).sort());
    await Promise.all(files.map((f, i) => appendMessages(f, [{ role: "user", content: `only in ${i}` }])));
    for (const [i, f] of files.entries()) {
      expect((await loadSessionFile(f)).messages).toEqual([{ role: "user", content: `only in ${i}` }]);
    }
  });

  test("a file another writer adds is never clobbered, and counts once the identity's listing is older than SEQ_LISTING_MS", async () => {
    const dir = tempDir();
    expect(path.basename(await createNextSessionFile(dir, newSessionMeta("crab", "user")))).toBe("crab_user_1.jsonl");
    fs.writeFileSync(path.join(dir, "crab_user_2.jsonl"), "{}\n");
    fs.writeFileSync(path.join(dir, "crab_user_7_by-hand.jsonl"), "{}\n");
    // Within the listing's lifetime (3) or after it (8, on a slow machine): the taken name is never overwritten.
    const next = path.basename(await createNextSessionFile(dir, newSessionMeta("crab", "user")));
    expect(["crab_user_3.jsonl", "crab_user_8.jsonl"]).toContain(next);
    // Every listing so far happened before now (a loaded machine may take long inside a create).
    const listedBy = Date.now();
    expect(fs.readFileSync(path.join(dir, "crab_user_2.jsonl"), "utf8")).toBe("{}\n");
    // Once the listing is stale, the directory is listed again: 1 + the highest seq.
    await Bun.sleep(Math.max(0, listedBy + SEQ_LISTING_MS - Date.now()));
    const after = path.basename(await createNextSessionFile(dir, newSessionMeta("crab", "user")));
    expect(after).toBe(next === "crab_user_3.jsonl" ? "crab_user_8.jsonl" : "crab_user_9.jsonl");
  });

  test("creators that do not share a lock (another process, another spelling of the dir) still never clobber", async () => {
    const dir = tempDir();
    const alias = `${dir}-alias`;
    fs.symlinkSync(dir, alias);
    try {
      // Two lock keys: the scans race, so some links meet a name taken after the scan.
      const files = await Promise.all(Array.from({ length: 30 }, (_, i) => createNextSessionFile(i % 2 ? alias : dir, newSessionMeta("crab", "user"))));
      const names = files.map((f) => path.basename(f));
      expect(new Set(names).size).toBe(30);
      expect(fs.readdirSync(dir).sort()).toEqual(names.sort());
    } finally {
      fs.rmSync(alias);
    }
  });
});
