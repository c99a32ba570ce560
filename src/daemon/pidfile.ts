// run/crabtalk.pid lets `crabtalk stop` find a background daemon.
import { rmSync, writeFileSync } from "node:fs";

/** Writes our pid; returns the function that removes it again. */
export function writePidFile(path: string): () => void {
  writeFileSync(path, String(process.pid));
  return () => rmSync(path, { force: true });
}
