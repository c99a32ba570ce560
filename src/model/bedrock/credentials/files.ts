// Bounded reads of the files the credential chain looks at
// (docs/providers.md#bedrock--aws-bedrock): the shared config and credentials
// files, cached SSO tokens, web identity and container token files. A file
// larger than its cap is an error, never read whole into memory.
import { open } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { credentialsError } from "./failure.ts";
import type { Env } from "./types.ts";

export const KIB = 1024;

/** The home directory as the SDK finds it: HOME, USERPROFILE, HOMEDRIVE+HOMEPATH, else the OS's. */
export function homeDir(env: Env): string {
  if (env.HOME) return env.HOME;
  if (env.USERPROFILE) return env.USERPROFILE;
  if (env.HOMEPATH) return `${env.HOMEDRIVE ?? "C:\\"}${env.HOMEPATH}`;
  return homedir();
}

/** A path from the environment or a file, `~/` expanded as the SDK does. */
export function expandHome(path: string, env: Env): string {
  return path.startsWith("~/") ? join(homeDir(env), path.slice(2)) : path;
}

/** A path as shown in messages: `~/…` under the home directory. */
export function shownPath(path: string, env: Env): string {
  const home = homeDir(env);
  return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

/**
 * The text of a file, or undefined when it does not exist. At most `maxBytes`
 * are read; a larger file is an error. `what` names the file in messages
 * (e.g. "~/.aws/config").
 */
export async function readBounded(path: string, maxBytes: number, what: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw credentialsError(what, `cannot read it (${String(code ?? "error")})`, { cause: err });
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) throw credentialsError(what, `larger than ${maxBytes / KIB} KiB`);
    return buffer.subarray(0, filled).toString("utf8");
  } catch (err) {
    if (err instanceof Error && err.name === "ProviderError") throw err;
    const code = (err as { code?: unknown }).code;
    throw credentialsError(what, `cannot read it (${String(code ?? "error")})`, { cause: err });
  } finally {
    await handle.close();
  }
}
