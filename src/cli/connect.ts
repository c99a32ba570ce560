// How CLI commands reach the daemon: the Unix socket, or TCP with --tcp.
import { readFileSync } from "node:fs";
import { connect, type Endpoint } from "../transport/connect.ts";
import { Client } from "../protocol/client.ts";
import { homePaths, resolveHome } from "../base/home-paths.ts";
import { locate, tcpEndpoint, unreachable, versionFrom, versionWarning, type ConnectOptions } from "./endpoint.ts";

export { UnreachableError, type ConnectOptions } from "./endpoint.ts";

export function daemonEndpoint(options: ConnectOptions, env = process.env): Endpoint {
  const { paths, unix } = locate(options, env);
  return unix ?? tcpEndpoint(paths, readText(paths.portFile));
}

/** The version the running daemon wrote at start, or undefined (an older or foreign daemon). */
export function daemonVersion(env = process.env): string | undefined {
  return versionFrom(readText(homePaths(resolveHome(env)).versionFile));
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export async function connectClient(options: ConnectOptions): Promise<Client> {
  const endpoint = daemonEndpoint(options);
  let client: Client;
  try {
    client = new Client(await connect(endpoint));
  } catch {
    throw unreachable(endpoint);
  }
  warnIfVersionsDiffer();
  return client;
}

let versionChecked = false;

/** One stderr line per command when this CLI and the daemon it reaches differ. */
function warnIfVersionsDiffer(): void {
  if (versionChecked) return;
  versionChecked = true;
  const warning = versionWarning(daemonVersion());
  if (warning) process.stderr.write(warning);
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
