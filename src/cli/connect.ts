// How CLI commands reach the daemon: the Unix socket, or TCP with --tcp.
import { connect } from "../transport/connect.ts";
import { Client } from "../protocol/client.ts";
import { daemonEndpoint, unreachable, versionWarning, type ConnectOptions } from "./endpoint.ts";

export { daemonEndpoint, daemonVersion, UnreachableError, type ConnectOptions } from "./endpoint.ts";

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
  const warning = versionWarning();
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
