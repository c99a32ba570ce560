// How CLI commands reach the daemon: the Unix socket, or TCP with --tcp.
import { readFileSync } from "node:fs";
import { connect, describeEndpoint, type Endpoint } from "../transport/connect.ts";
import { Client } from "../protocol/client.ts";
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
    throw new UnreachableError(
      `no port file at ${paths.portFile}: is the daemon running? try crabtalk start (and TCP must be on, see [system.tcp])`,
    );
  }
  return { hostname: "127.0.0.1", port };
}

export async function connectClient(options: ConnectOptions): Promise<Client> {
  const endpoint = daemonEndpoint(options);
  let client: Client;
  try {
    client = new Client(await connect(endpoint));
  } catch {
    throw new UnreachableError(
      `cannot reach the daemon at ${describeEndpoint(endpoint)}: is the daemon running? try crabtalk start`,
    );
  }
  warnIfVersionsDiffer();
  return client;
}

/** The version the running daemon wrote at start, or undefined (an older or foreign daemon). */
export function daemonVersion(env = process.env): string | undefined {
  try {
    return readFileSync(homePaths(resolveHome(env)).versionFile, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

let versionChecked = false;

/** One stderr line per command when this CLI and the daemon it reaches differ. */
function warnIfVersionsDiffer(): void {
  if (versionChecked) return;
  versionChecked = true;
  const running = daemonVersion();
  if (running === undefined || running === VERSION) return;
  process.stderr.write(
    `crabtalk: warning: the daemon runs crabtalk ${running} but this is ${VERSION}: run 'crabtalk restart' to run the new version\n`,
  );
}

/** Opens a client, runs `fn`, always closes. */
export async function withClient<T>(options: ConnectOptions, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectClient(options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
