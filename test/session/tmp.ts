// Per-test temporary directories, removed after the test file finishes.
import { afterAll } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory (its real path, so comparisons with realpath results hold). */
export function tempDir(prefix = "crabtalk-session-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export const lines = (file: string): string[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "");
