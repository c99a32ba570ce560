// Confinement of client-supplied session paths to `sessions/` (docs/sessions.md#paths-from-clients).
import { lstatSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { SESSION_EXT } from "./names.ts";

export type SessionPathErrorReason = "outside" | "missing";

/** `outside` → 400 (not a session file path), `missing` → 404. */
export class SessionPathError extends Error {
  constructor(
    readonly path: string,
    readonly reason: SessionPathErrorReason,
  ) {
    super(
      reason === "missing"
        ? `session file ${path} does not exist`
        : `session file path ${JSON.stringify(path)} is not a .jsonl file inside the sessions directory`,
    );
    this.name = "SessionPathError";
  }
}

/**
 * The real absolute path of session file `filePath` (relative paths are taken
 * relative to `sessionsDir`). Accepted only when both the path as written and
 * the file it really is (symlinks of the file or a parent followed) are a
 * `.jsonl` directly in `sessionsDir`; otherwise SessionPathError. An outside
 * path is reported as outside whether or not it exists.
 */
export function resolveSessionPath(sessionsDir: string, filePath: string): string {
  const outside = () => new SessionPathError(filePath, "outside");
  if (filePath === "" || filePath.includes("\0")) throw outside();
  const dir = resolve(sessionsDir);
  const realDir = realOrUndefined(dir);
  const written = resolve(dir, filePath);
  const writtenParent = dirname(written);
  if (!isSessionName(basename(written)) || (writtenParent !== dir && writtenParent !== realDir)) throw outside();
  if (realDir === undefined) throw new SessionPathError(filePath, "missing");
  let real: string;
  try {
    real = realpathSync(written);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A dangling symlink: whatever it names, it is not a session file here.
    if (code === "ENOENT") throw new SessionPathError(filePath, isDanglingLink(written) ? "outside" : "missing");
    throw outside();
  }
  if (dirname(real) !== realDir || !isSessionName(basename(real))) throw outside();
  let isFile: boolean;
  try {
    isFile = statSync(real).isFile();
  } catch {
    throw new SessionPathError(filePath, "missing");
  }
  if (!isFile) throw outside();
  return real;
}

function isSessionName(name: string): boolean {
  return name.endsWith(SESSION_EXT) && name.length > SESSION_EXT.length;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
