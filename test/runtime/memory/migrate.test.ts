// Legacy memory migration (docs/memory.md#old-memory-layout).
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore, removeTempDirs, tempDir } from "./helpers.ts";

afterAll(removeTempDirs);

function legacy(files: Record<string, string>): string {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test("memory.md becomes MEMORY.md and one entry per blank-line-separated chunk", async () => {
  const dir = legacy({ "memory.md": "Likes tea.\nHates coffee.\n\n\nWorks at Acme.\r\n\r\nHas a cat named Luna.\n" });
  const { store } = await openStore(dir);
  expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe("Likes tea.\nHates coffee.\n\n\nWorks at Acme.\r\n\r\nHas a cat named Luna.\n");
  expect(store.names()).toEqual(["migrated-memory-0", "migrated-memory-1", "migrated-memory-2"]);
  expect(store.get("migrated-memory-0")).toEqual({
    name: "migrated-memory-0",
    description: "Migrated from memory.md",
    content: "Likes tea.\nHates coffee.",
  });
  expect(store.get("migrated-memory-2")?.content).toBe("Has a cat named Luna.");
  expect(existsSync(join(dir, "memory.md"))).toBe(false);
  expect(existsSync(join(dir, "memory.md.bak"))).toBe(true);
  expect(store.recall("Luna", 5)).toBe("## migrated-memory-2\nMigrated from memory.md\n\nHas a cat named Luna.");
  expect(store.readIndex()).toContain("Works at Acme.");
});

test("user.md becomes user-profile and facts.toml becomes known-facts", async () => {
  const dir = legacy({ "user.md": "# User\nName: Sam\n", "facts.toml": 'timezone = "UTC"\n' });
  const { store } = await openStore(dir);
  expect(store.names()).toEqual(["known-facts", "user-profile"]);
  expect(store.get("user-profile")?.content).toBe("# User\nName: Sam");
  expect(store.get("known-facts")?.content).toBe('timezone = "UTC"');
  expect(readdirSync(dir).sort()).toEqual(["entries", "facts.toml.bak", "user.md.bak"]);
  expect(readdirSync(join(dir, "entries")).sort()).toEqual(["known-facts.md", "user-profile.md"]);
  expect(store.readIndex()).toBe("");
});

test("no migration when entries already exist; it never runs twice", async () => {
  const dir = legacy({ "user.md": "Sam" });
  mkdirSync(join(dir, "entries"));
  writeFileSync(join(dir, "entries", "a.md"), "---\nname: a\n---\nx\n");
  const { store } = await openStore(dir);
  expect(store.names()).toEqual(["a"]);
  expect(existsSync(join(dir, "user.md"))).toBe(true);

  const once = legacy({ "user.md": "Sam" });
  await openStore(once);
  writeFileSync(join(once, "user.md"), "Someone else");
  const second = await openStore(once);
  expect(second.store.get("user-profile")?.content).toBe("Sam");
  expect(existsSync(join(once, "user.md"))).toBe(true);
});
