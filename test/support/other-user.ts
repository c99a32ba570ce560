// What a second OS user's process needs from the repository, copied where that
// user can read it: the checkout itself may sit in a directory only its owner
// can enter (a clone in `mktemp -d` is 0700).
import { chmodSync, copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

/** Copies `files` into a fresh directory anyone can read and returns it (remove it with cleanup). */
export function readableByAnyone(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-shared-"));
  chmodSync(dir, 0o755);
  for (const file of files) {
    const to = join(dir, basename(file));
    copyFileSync(file, to);
    chmodSync(to, 0o644);
  }
  return dir;
}
