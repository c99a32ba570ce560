// Where the daemon listens and which version it runs, from the files in its
// home. No protocol code and no node:fs (the caller reads the files, sync or
// not), so the fast CLI path (src/cli/fast) can share it.
import { describeEndpoint, type Endpoint } from "../transport/connect.ts";
import { homePaths, resolveHome, type HomePaths } from "../base/home-paths.ts";
import { VERSION } from "../version.ts";

export interface ConnectOptions {
  tcp?: boolean;
}

export class UnreachableError extends Error {}

/** The daemon's paths, and the Unix socket unless TCP was asked for (or there is no Unix socket). */
export function locate(options: ConnectOptions, env = process.env): { paths: HomePaths; unix?: Endpoint } {
  const paths = homePaths(resolveHome(env));
  const unix = !options.tcp && process.platform !== "win32" ? { unix: paths.socket } : undefined;
  return { paths, unix };
}

/** The TCP endpoint from the port file's text (undefined: the file could not be read). */
export function tcpEndpoint(paths: HomePaths, portText: string | undefined): Endpoint {
  if (portText === undefined) {
    throw new UnreachableError(`no port file at ${paths.portFile}: is the daemon running? try crabtalk start (and TCP must be on, see [system.tcp])`);
  }
  return { hostname: "127.0.0.1", port: Number.parseInt(portText.trim(), 10) };
}

export function unreachable(endpoint: Endpoint): UnreachableError {
  return new UnreachableError(`cannot reach the daemon at ${describeEndpoint(endpoint)}: is the daemon running? try crabtalk start`);
}

/** The version file's text as the running daemon's version, or undefined (an older or foreign daemon). */
export function versionFrom(text: string | undefined): string | undefined {
  return text?.trim() || undefined;
}

/** The stderr line for when this CLI and the daemon it reaches differ, or undefined. */
export function versionWarning(running: string | undefined): string | undefined {
  if (running === undefined || running === VERSION) return undefined;
  return `crabtalk: warning: the daemon runs crabtalk ${running} but this is ${VERSION}: run 'crabtalk restart' to run the new version\n`;
}
