// Small file helpers for the memory folder: text reads that treat a missing
// file as absent, and atomic text writes (tmp file + rename, design.md).
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../../session/atomic.ts";

const encoder = new TextEncoder();

export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

export function writeTextAtomic(path: string, text: string): Promise<void> {
  return writeFileAtomic(path, encoder.encode(text));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
