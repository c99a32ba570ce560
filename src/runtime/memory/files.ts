// Small file helpers for the memory folder: text reads that treat a missing
// file as absent, and text writes through the one atomic writer (src/base/atomic-file.ts,
// docs/home.md#writing-files-safely).
import { writeFileAtomic } from "../../base/atomic-file.ts";
import { readRegularText } from "../../session/regular-file.ts";

export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    // Never a FIFO or device: a model's bash can make one in memory/.
    return await readRegularText(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** writeFileAtomic for text (the name the memory code and `crabtalk memory` use). */
export function writeTextAtomic(path: string, text: string): Promise<void> {
  return writeFileAtomic(path, text);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
