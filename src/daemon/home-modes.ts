// The home is its owner's alone (docs/security.md "Files and names"): the home, sessions/,
// memory/ and logs/ are 0700 and what the daemon keeps in them 0600. New files
// get that from the daemon's umask; a home made by an older version is
// tightened here at start.
import fs from "node:fs";
import { join } from "node:path";
import type { HomePaths } from "../base/home-paths.ts";

/** Only the owner may read, write or list what the daemon creates. */
export const DAEMON_UMASK = 0o077;

/** The umask the daemon was started with: its tools get it back (their files are the user's, not the daemon's). */
let startUmask: number | undefined;

/** Sets the daemon's umask, remembering the one it replaces. */
export function applyDaemonUmask(): void {
  const previous = process.umask(DAEMON_UMASK);
  startUmask ??= previous;
}

/** What tools run with: the umask the daemon was started with (undefined before applyDaemonUmask). */
export function toolUmask(): number | undefined {
  return startUmask;
}

export function tightenHome(p: HomePaths): void {
  for (const dir of [p.home, p.sessions, p.memoryDir, p.logsDir]) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700); // mkdir ignores mode for a directory that exists
  }
  privateFile(p.config);
  for (const dir of [p.sessions, p.logsDir]) {
    for (const name of fs.readdirSync(dir)) privateFile(join(dir, name));
  }
}

/** Drops group and other bits of a regular file; anything else (FIFO, link, directory) is left alone. */
function privateFile(path: string): void {
  try {
    const st = fs.lstatSync(path);
    if (st.isFile() && (st.mode & 0o077) !== 0) fs.chmodSync(path, st.mode & 0o700);
  } catch {
    // gone meanwhile
  }
}
