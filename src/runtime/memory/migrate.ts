// One-time migration of the pre-entries memory layout (docs/memory.md#old-memory-layout):
// runs only while `entries/` holds no entry, so it never fires twice.
import { rename } from "node:fs/promises";
import { join } from "node:path";
import type { MemoryEntry } from "./entry.ts";
import { errorText, readTextIfExists } from "./files.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export const LEGACY_FILES = ["memory.md", "user.md", "facts.toml"] as const;

export interface MigrationTarget {
  writeIndex(content: string): Promise<void>;
  save(entry: MemoryEntry): Promise<void>;
}

/** Migrates whichever legacy files exist in `dir`; returns the names of those migrated. */
export async function migrateLegacy(dir: string, target: MigrationTarget, log: RuntimeLog): Promise<string[]> {
  const migrated: string[] = [];
  for (const file of LEGACY_FILES) {
    const path = join(dir, file);
    try {
      const text = await readTextIfExists(path);
      if (text === undefined) continue;
      for (const entry of legacyEntries(file, text)) await target.save(entry);
      if (file === "memory.md") await target.writeIndex(text);
      await rename(path, `${path}.bak`);
      migrated.push(file);
    } catch (err) {
      log.warn(`memory: migrating ${path} failed: ${errorText(err)}`);
    }
  }
  return migrated;
}

/** The entries one legacy file becomes. */
export function legacyEntries(file: (typeof LEGACY_FILES)[number], text: string): MemoryEntry[] {
  const body = text.replace(/\r\n/g, "\n");
  switch (file) {
    case "memory.md":
      return body
        .split(/\n[ \t]*\n/)
        .map((chunk) => chunk.trim())
        .filter((chunk) => chunk !== "")
        .map((content, i) => ({ name: `migrated-memory-${i}`, description: "Migrated from memory.md", content }));
    case "user.md":
      return body.trim() === "" ? [] : [{ name: "user-profile", description: "Migrated from user.md", content: body.trim() }];
    case "facts.toml":
      return body.trim() === "" ? [] : [{ name: "known-facts", description: "Migrated from facts.toml", content: body.trim() }];
  }
}
