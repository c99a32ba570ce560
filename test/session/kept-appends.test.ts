// Appends keep the file's descriptor open for the next append to the same
// path; what another process does to the path in between is still honoured:
// a file swapped in is the one appended to, a deleted file is not written, a
// torn line left by someone else is not glued to ours, and only a few
// descriptors are ever held.
import { expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { appendLines } from "../../src/session/file.ts";
import { MAX_KEPT } from "../../src/session/kept-appends.ts";
import { tempDir } from "./tmp.ts";

const read = (file: string) => fs.readFileSync(file, "utf8");

test("a file replaced on disk between appends gets the next append, the replaced one does not", async () => {
  const dir = tempDir();
  const file = path.join(dir, "a.jsonl");
  fs.writeFileSync(file, "meta\n");
  await appendLines(file, ["one"]);
  const old = path.join(dir, "old.jsonl");
  fs.linkSync(file, old); // keeps the replaced file reachable to look at
  fs.writeFileSync(path.join(dir, "new.tmp"), "other meta\n");
  fs.renameSync(path.join(dir, "new.tmp"), file);
  await appendLines(file, ["two"]);
  expect(read(file)).toBe("other meta\ntwo\n");
  expect(read(old)).toBe("meta\none\n");
});

test("a file deleted between appends is not written: the append fails, or creates it anew when asked", async () => {
  const dir = tempDir();
  const file = path.join(dir, "b.jsonl");
  fs.writeFileSync(file, "meta\n");
  await appendLines(file, ["one"]);
  fs.rmSync(file);
  await expect(appendLines(file, ["two"])).rejects.toThrow();
  expect(fs.existsSync(file)).toBe(false);
  await appendLines(file, ["three"], true);
  expect(read(file)).toBe("three\n");
});

test("another writer's torn last line between our appends is closed before our line", async () => {
  const dir = tempDir();
  const file = path.join(dir, "c.jsonl");
  fs.writeFileSync(file, "meta\n");
  await appendLines(file, ["one"]);
  fs.appendFileSync(file, '{"torn":');
  await appendLines(file, ["two"]);
  await appendLines(file, ["three"]);
  expect(read(file)).toBe('meta\none\n{"torn":\ntwo\nthree\n');
});

test("appending to many files holds only a bounded number of descriptors, and every line lands", async () => {
  const dir = tempDir();
  const open = () => fs.readdirSync("/proc/self/fd").length;
  const before = open();
  const files = Array.from({ length: 2 * MAX_KEPT + 10 }, (_, i) => path.join(dir, `f${i}.jsonl`));
  for (let round = 0; round < 3; round++) {
    for (const f of files) await appendLines(f, [`r${round}`], true);
  }
  expect(open() - before).toBeLessThanOrEqual(MAX_KEPT);
  for (const f of files) expect(read(f)).toBe("r0\nr1\nr2\n");
});
