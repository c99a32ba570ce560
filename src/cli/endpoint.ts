// Where the daemon listens and which version it runs, as clients find them in
// its home; no protocol code, so the fast CLI path (src/cli/fast) can use it.
import { readFileSync } from "node:fs";
import { describeEndpoint, type Endpoint } from "../transport/connect.ts";
import { homePaths, resolveHome } from "../daemon/paths.ts";
import { VERSION } from "../version.ts";

export interface ConnectOptions {
  tcp?: boolean;
}

export class UnreachableError extends Error {}

export function daemonEndpoint(options: ConnectOptions, env = process.env): Endpoint {
  const paths = homePaths(resolveHome(env));
  if (!options.tcp && process.platform !== "win32") return { unix: paths.socket };
  let port: number;
  try {
    port = Number.parseInt(readFileSync(paths.portFile, "utf8").trim(), 10);
  } catch {
    throw new UnreachableError(`no port file at ${paths.portFile}: is the daemon running? try crabtalk start`);
  }
  return { hostname: "127.0.0.1", port };
}

export function unreachable(endpoint: Endpoint): UnreachableError {
  return new UnreachableError(
    `cannot reach the daemon at ${describeEndpoint(endpoint)}: is the daemon running? try crabtalk start`,
  );
}

/** The version the running daemon wrote at start, or undefined (an older or foreign daemon). */
export function daemonVersion(env = process.env): string | undefined {
  try {
    return readFileSync(homePaths(resolveHome(env)).versionFile, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The stderr line for when this CLI and the daemon it reaches differ, or undefined. */
export function versionWarning(): string | undefined {
  const running = daemonVersion();
  if (running === undefined || running === VERSION) return undefined;
  return `crabtalk: warning: the daemon runs crabtalk ${running} but this is ${VERSION}: run 'crabtalk restart' to run the new version\n`;
}
