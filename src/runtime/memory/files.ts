// Small file helpers for the memory folder: text reads that treat a missing
// file as absent, and atomic text writes (tmp file + rename, docs/home.md#writing-files-safely).
import { writeFileAtomic } from "../../shared/atomic-file.ts";
import { readRegularText } from "../../session/regular-file.ts";

const encoder = new TextEncoder();

export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    // Never a FIFO or device: a model's bash can make one in memory/.
    return await readRegularText(path);
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
