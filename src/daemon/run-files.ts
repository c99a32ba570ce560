// run/crabtalk.pid lets `crabtalk stop` find a background daemon;
// run/crabtalk.version lets a client see it talks to an older daemon.
import { rmSync, writeFileSync } from "node:fs";

/** Writes a small file of run/; returns the function that removes it again. */
export function writeRunFile(path: string, content: string): () => void {
  writeFileSync(path, content, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}
