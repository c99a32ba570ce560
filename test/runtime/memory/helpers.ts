// Temp memory folders for the memory tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "../../../src/runtime/memory/store.ts";

const made: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-memory-"));
  made.push(dir);
  return join(dir, "memory");
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export async function openStore(dir = tempDir()): Promise<{ store: MemoryStore; warnings: string[]; dir: string }> {
  const warnings: string[] = [];
  const store = await MemoryStore.open(dir, { warn: (m) => warnings.push(m) });
  return { store, warnings, dir };
}
