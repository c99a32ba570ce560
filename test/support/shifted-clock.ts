// A daemon whose wall clock a test moves forward, with nothing in the product
// for it: Debian's libfaketime (package `faketime`, installed by .ci/run) is
// preloaded into the daemon process and reads its offset from a file on every
// clock call. Only the wall clock moves (Date.now, what expiries compare
// with); the monotonic clock that timers run on does not.
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CANDIDATES = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/faketime/libfaketimeMT.so.1",
];

export const FAKETIME_LIBRARY = process.env.CRABTALK_TEST_FAKETIME ?? CANDIDATES.find((path) => existsSync(path)) ?? CANDIDATES[0];

export interface ShiftedClock {
  /** The environment that preloads the shifted clock into a process (StartOptions.env). */
  env: Record<string, string>;
  /** From now on the process's wall clock reads `seconds` ahead of the real one. */
  shift(seconds: number): void;
  dispose(): void;
}

export function shiftedClock(): ShiftedClock {
  if (!existsSync(FAKETIME_LIBRARY)) {
    throw new Error(`libfaketime is not installed (${FAKETIME_LIBRARY}): apt-get install faketime, or set CRABTALK_TEST_FAKETIME to its libfaketimeMT.so.1`);
  }
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-clock-"));
  const file = join(dir, "offset");
  writeFileSync(file, "+0\n");
  return {
    env: {
      LD_PRELOAD: FAKETIME_LIBRARY,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: "1",
      FAKETIME_DONT_FAKE_MONOTONIC: "1",
    },
    shift(seconds) {
      // Renamed into place: the process never reads a half-written offset.
      writeFileSync(`${file}.new`, `+${Math.round(seconds)}\n`);
      renameSync(`${file}.new`, file);
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
