// The memory store on real files (docs/memory.md).
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemoryStore } from "../../../src/runtime/memory/store.ts";
import { openStore, removeTempDirs, tempDir } from "./helpers.ts";
import { SILENT_LOG } from "../../../src/base/runtime-log.ts";

afterAll(removeTempDirs);

test("open creates the folder; an empty store recalls nothing", async () => {
  const { store, dir, warnings } = await openStore();
  expect(existsSync(join(dir, "entries"))).toBe(true);
  expect(store.names()).toEqual([]);
  expect(store.recall("anything", 5)).toBe("no memories found");
  expect(store.readIndex()).toBe("");
  expect(warnings).toEqual([]);
});

test("remember writes <slug>.md in the entry format; a new store loads it", async () => {
  const { store, dir } = await openStore();
  await store.remember("Luna's Vet Appointment!", "Luna vet appointment date", "Tuesday 3pm at Dr. Ortiz");
  const file = join(dir, "entries", "luna-s-vet-appointment.md");
  expect(readFileSync(file, "utf8")).toBe("---\nname: Luna's Vet Appointment!\ndescription: Luna vet appointment date\n---\n\nTuesday 3pm at Dr. Ortiz\n");
  const again = await MemoryStore.open(dir, SILENT_LOG);
  expect(again.get("Luna's Vet Appointment!")).toEqual({
    name: "Luna's Vet Appointment!",
    description: "Luna vet appointment date",
    content: "Tuesday 3pm at Dr. Ortiz",
  });
});

test("remember with an existing name overwrites the same file", async () => {
  const { store, dir } = await openStore();
  await store.remember("coffee", "coffee order", "flat white");
  await store.remember("coffee", "coffee order preference", "oat flat white, no sugar");
  expect(readdirSync(join(dir, "entries"))).toEqual(["coffee.md"]);
  expect(store.names()).toEqual(["coffee"]);
  expect(store.recall("sugar", 5)).toBe("## coffee\ncoffee order preference\n\noat flat white, no sugar");
  const again = await MemoryStore.open(dir, SILENT_LOG);
  expect(again.get("coffee")?.content).toBe("oat flat white, no sugar");
});

test("different names with the same slug get separate files", async () => {
  const { store, dir } = await openStore();
  await store.remember("Tea!", "tea", "green");
  await store.remember("tea?", "tea", "black");
  expect(readdirSync(join(dir, "entries")).sort()).toEqual(["tea-2.md", "tea.md"]);
  const again = await MemoryStore.open(dir, SILENT_LOG);
  expect(again.names()).toEqual(["Tea!", "tea?"]);
});

test("remember rejects an empty or multi-line name and folds a multi-line description", async () => {
  const { store } = await openStore();
  await expect(store.remember("  ", "d", "c")).rejects.toThrow("name is empty");
  await expect(store.remember("a\nb", "d", "c")).rejects.toThrow("single line");
  const e = await store.remember("  spaced  ", "two\nlines", "\n body \n");
  expect(e).toEqual({ name: "spaced", description: "two lines", content: "body" });
});

test("remember and add refuse a name that looks like a path, and write nothing", async () => {
  const { store, dir } = await openStore();
  await expect(store.remember("../x", "d", "c")).rejects.toThrow("looks like a file path");
  await expect(store.add("/etc/passwd", "d", "c")).rejects.toThrow("looks like a file path");
  // A slash inside a name is harmless (the file is named by the slug) and kept.
  expect((await store.add("CI/CD", "d", "c"))?.name).toBe("CI/CD");
  expect(readdirSync(join(dir, "entries"))).toEqual(["ci-cd.md"]);
});

test("add never overwrites: a taken name gives undefined and the entry stays", async () => {
  const { store } = await openStore();
  expect(await store.add("tea", "d", "green")).toEqual({ name: "tea", description: "d", content: "green" });
  expect(await store.add(" tea ", "d", "black")).toBeUndefined();
  expect(store.get("tea")?.content).toBe("green");
});

test("forget deletes the file and the entry", async () => {
  const { store, dir } = await openStore();
  await store.remember("old job", "previous employer", "Acme");
  expect(await store.forget("old job")).toBe(true);
  expect(readdirSync(join(dir, "entries"))).toEqual([]);
  expect(store.get("old job")).toBeUndefined();
  expect(store.recall("employer", 5)).toBe("no memories found");
  expect(await store.forget("old job")).toBe(false);
});

test("recall output: ranked hits joined by ---, the name is not indexed, limit applies", async () => {
  const { store } = await openStore();
  await store.remember("garden", "vegetable garden plans", "tomatoes and garden beans");
  await store.remember("kitchen", "kitchen renovation", "new garden window");
  await store.remember("tomatoes", "unrelated", "nothing here");
  expect(store.recall("garden", 5)).toBe(
    "## garden\nvegetable garden plans\n\ntomatoes and garden beans\n---\n## kitchen\nkitchen renovation\n\nnew garden window",
  );
  expect(store.recall("garden", 1)).toBe("## garden\nvegetable garden plans\n\ntomatoes and garden beans");
  expect(store.search("tomatoes", 5).map((e) => e.name)).toEqual(["garden"]);
  expect(store.recall("the of and", 5)).toBe("no memories found");
});

test("bad entry files are skipped with a warning and never overwritten", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "entries"), { recursive: true });
  writeFileSync(join(dir, "entries", "good.md"), "---\nname: good\ndescription: fine\n---\n\nok\n");
  writeFileSync(join(dir, "entries", "broken.md"), "no front matter");
  writeFileSync(join(dir, "entries", "twin.md"), "---\nname: good\n---\nduplicate\n");
  writeFileSync(join(dir, "entries", "notes.txt"), "ignored");
  const { store, warnings } = await openStore(dir);
  expect(store.names()).toEqual(["good"]);
  expect(warnings).toHaveLength(2);
  expect(warnings[0]).toContain("broken.md");
  expect(warnings[1]).toContain("twin.md");
  await store.remember("Broken", "new", "entry");
  expect(readFileSync(join(dir, "entries", "broken.md"), "utf8")).toBe("no front matter");
  expect(readFileSync(join(dir, "entries", "broken-2.md"), "utf8")).toContain("name: Broken");
});

test("MEMORY.md: readIndex and writeIndex, atomically, no temp files left", async () => {
  const { store, dir } = await openStore();
  await store.writeIndex("# Overview\n- likes tea\n");
  expect(store.readIndex()).toBe("# Overview\n- likes tea\n");
  expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe("# Overview\n- likes tea\n");
  await store.remember("x", "y", "z");
  expect(readdirSync(dir).sort()).toEqual(["MEMORY.md", "entries"]);
  expect(readdirSync(join(dir, "entries"))).toEqual(["x.md"]);
  const again = await MemoryStore.open(dir, SILENT_LOG);
  expect(again.readIndex()).toBe("# Overview\n- likes tea\n");
});

test("a failed write changes nothing in memory", async () => {
  const { store, dir } = await openStore();
  await store.remember("keep", "kept entry", "original");
  const { rmSync } = await import("node:fs");
  rmSync(join(dir, "entries"), { recursive: true });
  await expect(store.remember("keep", "kept entry", "changed")).rejects.toThrow();
  expect(store.get("keep")?.content).toBe("original");
  await expect(store.remember("fresh", "d", "c")).rejects.toThrow();
  expect(store.get("fresh")).toBeUndefined();
});
