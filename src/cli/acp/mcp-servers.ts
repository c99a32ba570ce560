// The editor's MCP servers (session/new, session/load) attached to the
// session's runs with the daemon's AttachMcps, over a connection of their own
// that this process holds: when it ends (or the session gets other servers),
// the connection closes and the daemon drops them
// (docs/editors.md#mcp-servers-from-the-editor, docs/protocol.md "MCP servers of a sender").
import { RequestError, type McpServer } from "@agentclientprotocol/sdk";
import { DaemonError, type Client } from "../../protocol/client.ts";
import { McpStatus } from "../../protocol/gen/crabtalk_pb.ts";
import { connectClient, type ConnectOptions } from "../connect.ts";
import { note } from "./log.ts";

interface AttachedServer {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  url: string;
  headers: Record<string, string>;
}

/** As AttachMcps takes them; SSE is not offered (`mcpCapabilities.sse` is false). */
export function attachable(servers: McpServer[]): AttachedServer[] {
  return servers.map((s) => {
    if ("type" in s && s.type === "sse")
      throw RequestError.invalidParams({ mcpServer: s.name }, `MCP server '${s.name}': SSE is not supported; use HTTP or stdio`);
    if ("type" in s && s.type === "http") return { name: s.name, command: "", args: [], env: {}, url: s.url, headers: pairs(s.headers) };
    return { name: s.name, command: s.command, args: s.args ?? [], env: pairs(s.env ?? []), url: "", headers: {} };
  });
}

function pairs(list: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(list.map((p) => [p.name, p.value]));
}

/**
 * Connects the servers for `sender`'s runs and returns the connection that
 * keeps them; servers that failed are said on stderr. A server list the
 * daemon refuses is an invalid-params error.
 */
export async function attachServers(conn: ConnectOptions, sender: string, servers: AttachedServer[]): Promise<Client> {
  const hold = await connectClient(conn);
  try {
    const statuses = await hold.attachMcps(sender, servers);
    for (const s of statuses) if (s.status !== McpStatus.CONNECTED) note(`the editor's MCP server '${s.name}' could not be connected: ${s.error}`);
    return hold;
  } catch (err) {
    await hold.close();
    if (err instanceof DaemonError && err.code === 400) throw RequestError.invalidParams({ mcpServers: servers.map((s) => s.name) }, err.message);
    throw err;
  }
}
