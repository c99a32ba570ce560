// MCP server connections (daemon.md §14.1–§14.2): every configured server is
// connected in parallel at runtime build, each within a time limit; a server
// that fails or times out is skipped with a warning and never stops the
// daemon. Tools keep the servers' own names; the first server wins a name.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  MCP_CONNECT_TIMEOUT_MS,
  McpToolUnavailableError,
  type McpCallResult,
  type McpConnectOptions,
  type McpPool,
  type McpServerSpec,
  type McpServerStatus,
  type McpToolInfo,
} from "./types.ts";

// Callers that connect get the vocabulary from here too.
export * from "./types.ts";

const DEFAULT_CLIENT_VERSION = "0.0.0";

interface Connection {
  name: string;
  client?: Client;
  transport?: Transport;
  tools: { name: string; description: string }[];
  error: string;
  alive: boolean;
  /** Set when a failed connection is being torn down. */
  closing?: Promise<void>;
}

export async function connectMcpServers(specs: McpServerSpec[], options: McpConnectOptions): Promise<McpPool> {
  const timeoutMs = options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const connections = await Promise.all(specs.map((spec) => connectOne(spec, options, options.handshakeTimeoutMs ?? timeoutMs)));
  return new Pool(connections, timeoutMs, options.warn);
}

function serverEnv(spec: McpServerSpec, options: McpConnectOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.baseEnv)) if (v !== undefined) env[k] = v;
  return { ...env, ...options.extraEnv, ...spec.env };
}

function makeTransport(spec: McpServerSpec, options: McpConnectOptions): Transport {
  if (spec.url) return new StreamableHTTPClientTransport(new URL(spec.url));
  if (!spec.command) throw new Error("neither command nor url is set");
  return new StdioClientTransport({ command: spec.command, args: spec.args, env: serverEnv(spec, options), stderr: "ignore" });
}

async function connectOne(spec: McpServerSpec, options: McpConnectOptions, timeoutMs: number): Promise<Connection> {
  const conn: Connection = { name: spec.name, tools: [], error: "", alive: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const transport = makeTransport(spec, options);
    const client = new Client({ name: "crabtalk", version: options.clientVersion ?? DEFAULT_CLIENT_VERSION }, { capabilities: {} });
    conn.transport = transport;
    conn.client = client;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    const done = handshake(client, transport, conn, timeoutMs);
    done.catch(() => {}); // after a timeout its late rejection has no one to tell
    await Promise.race([done, timeout]);
    conn.alive = true;
    client.onclose = () => {
      conn.alive = false;
    };
  } catch (err) {
    conn.error = err instanceof Error ? err.message : String(err);
    conn.tools = [];
    options.warn(`mcp server '${spec.name}' skipped: ${conn.error}`);
    // A stubborn process may take seconds to stop: don't hold up the build; close() awaits it.
    conn.closing = safeClose(conn);
  } finally {
    clearTimeout(timer);
  }
  return conn;
}

async function handshake(client: Client, transport: Transport, conn: Connection, timeoutMs: number): Promise<void> {
  await client.connect(transport, { timeout: timeoutMs });
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const t of page.tools) conn.tools.push({ name: t.name, description: t.description ?? "" });
    cursor = page.nextCursor;
  } while (cursor);
}

async function safeClose(conn: Connection): Promise<void> {
  conn.alive = false;
  try {
    if (conn.client) await conn.client.close();
    else await conn.transport?.close();
  } catch {
    // Closing a half-open connection may fail; the process is gone either way.
  }
}

class Pool implements McpPool {
  /** Tool name → owning connection (first wins). */
  private owners = new Map<string, Connection>();

  constructor(
    private readonly conns: Connection[],
    private readonly timeoutMs: number,
    warn: (msg: string) => void,
  ) {
    for (const conn of conns) {
      if (!conn.alive) continue;
      for (const tool of conn.tools) {
        const owner = this.owners.get(tool.name);
        if (owner) warn(`mcp tool '${tool.name}' of server '${conn.name}' skipped: already provided by '${owner.name}'`);
        else this.owners.set(tool.name, conn);
      }
    }
  }

  servers(): McpServerStatus[] {
    return this.conns.map((c) => ({
      name: c.name,
      status: c.error === "" ? "connected" : "failed",
      error: c.error,
      toolCount: c.error === "" ? c.tools.length : 0,
    }));
  }

  connectedNames(): string[] {
    return this.conns.filter((c) => c.error === "").map((c) => c.name);
  }

  tools(scope: string[]): McpToolInfo[] {
    const out: McpToolInfo[] = [];
    for (const conn of this.conns) {
      if (conn.error !== "" || (scope.length > 0 && !scope.includes(conn.name))) continue;
      for (const tool of conn.tools) {
        if (this.owners.get(tool.name) === conn) out.push({ ...tool, server: conn.name });
      }
    }
    return out;
  }

  async call(name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<McpCallResult> {
    const conn = this.owners.get(name);
    if (!conn || !conn.alive || !conn.client) throw new McpToolUnavailableError(name);
    const params = args === undefined ? { name } : { name, arguments: args };
    const result = await conn.client.callTool(params, undefined, { timeout: this.timeoutMs, signal });
    const content = Array.isArray(result.content) ? result.content : [];
    const text = content
      .filter((c): c is { type: "text"; text: string } => c?.type === "text" && typeof c.text === "string")
      .map((c) => c.text)
      .join("\n");
    return { text, isError: result.isError === true };
  }

  async close(): Promise<void> {
    await Promise.all(this.conns.map((c) => c.closing ?? safeClose(c)));
  }
}
