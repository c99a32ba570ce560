// MCP server connections (docs/mcp.md): every configured server is
// connected in parallel, in the background, each within a time limit; a
// server that fails or times out is skipped with a warning and never stops
// the daemon. Tools keep the servers' own names; the first server (in config
// order) among the connected ones wins a name.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RuntimeLog } from "../../base/runtime-log.ts";
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
  /** Settles when the connection is up or has failed. */
  settled?: Promise<void>;
  connecting: boolean;
  client?: Client;
  transport?: Transport;
  tools: { name: string; description: string }[];
  error: string;
  alive: boolean;
  /** Set when a failed connection is being torn down. */
  closing?: Promise<void>;
}

/** Starts connecting every server and returns at once; `ready()` tells when they are done. */
export function startMcpServers(specs: McpServerSpec[], options: McpConnectOptions): McpPool {
  const timeoutMs = options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const pool = new Pool(timeoutMs, options.log);
  for (const spec of specs) pool.add(spec, (conn) => connectOne(conn, spec, options, options.handshakeTimeoutMs ?? timeoutMs));
  return pool;
}

/** Connects every server and resolves once each is connected or has failed. */
export async function connectMcpServers(specs: McpServerSpec[], options: McpConnectOptions): Promise<McpPool> {
  const pool = startMcpServers(specs, options);
  await pool.ready([]);
  return pool;
}

function serverEnv(spec: McpServerSpec, options: McpConnectOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.baseEnv)) if (v !== undefined) env[k] = v;
  return { ...env, ...options.extraEnv, ...spec.env };
}

function makeTransport(spec: McpServerSpec, options: McpConnectOptions): Transport {
  if (spec.url) return new StreamableHTTPClientTransport(new URL(spec.url), spec.headers ? { requestInit: { headers: spec.headers } } : undefined);
  if (!spec.command) throw new Error("neither command nor url is set");
  return new StdioClientTransport({ command: spec.command, args: spec.args, env: serverEnv(spec, options), cwd: spec.cwd, stderr: "ignore" });
}

async function connectOne(conn: Connection, spec: McpServerSpec, options: McpConnectOptions, timeoutMs: number): Promise<void> {
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
    options.log.warn(`mcp server '${spec.name}' skipped: ${conn.error}`);
    // A stubborn process may take seconds to stop: don't hold up the build; close() awaits it.
    conn.closing ??= safeClose(conn);
  } finally {
    clearTimeout(timer);
    conn.connecting = false;
  }
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
  private readonly conns: Connection[] = [];
  /** Tool name → owning connection (first connected server in config order wins). */
  private owners = new Map<string, Connection>();
  /** Names already reported as shadowed. */
  private readonly shadowed = new Set<string>();

  constructor(
    private readonly timeoutMs: number,
    private readonly log: RuntimeLog,
  ) {}

  add(spec: McpServerSpec, connect: (conn: Connection) => Promise<void>): void {
    const conn: Connection = { name: spec.name, tools: [], error: "", alive: false, connecting: true };
    this.conns.push(conn);
    conn.settled = connect(conn).then(() => this.assignOwners());
  }

  /** Recomputed whenever a connection settles, so the order never depends on who answered first. */
  private assignOwners(): void {
    const owners = new Map<string, Connection>();
    for (const conn of this.conns) {
      if (!this.isUp(conn)) continue;
      for (const tool of conn.tools) {
        const owner = owners.get(tool.name);
        if (!owner) owners.set(tool.name, conn);
        else if (!this.shadowed.has(`${conn.name}\u0000${tool.name}`)) {
          this.shadowed.add(`${conn.name}\u0000${tool.name}`);
          this.log.warn(`mcp tool '${tool.name}' of server '${conn.name}' skipped: already provided by '${owner.name}'`);
        }
      }
    }
    this.owners = owners;
  }

  private isUp(conn: Connection): boolean {
    return !conn.connecting && conn.error === "";
  }

  async ready(scope: string[]): Promise<void> {
    const waiting = this.conns.filter((c) => scope.length === 0 || scope.includes(c.name)).map((c) => c.settled);
    await Promise.all(waiting);
  }

  servers(): McpServerStatus[] {
    return this.conns.map((c) => ({
      name: c.name,
      status: c.connecting ? "connecting" : c.error === "" ? "connected" : "failed",
      error: c.error,
      toolCount: this.isUp(c) ? c.tools.length : 0,
    }));
  }

  connectedNames(): string[] {
    return this.conns.filter((c) => this.isUp(c)).map((c) => c.name);
  }

  tools(scope: string[]): McpToolInfo[] {
    const out: McpToolInfo[] = [];
    for (const conn of this.conns) {
      if (!this.isUp(conn) || (scope.length > 0 && !scope.includes(conn.name))) continue;
      for (const tool of conn.tools) {
        if (this.owners.get(tool.name) === conn) out.push({ ...tool, server: conn.name });
      }
    }
    return out;
  }

  async call(name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<McpCallResult> {
    const conn = this.owners.get(name);
    if (!conn?.alive || !conn.client) throw new McpToolUnavailableError(name);
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
    // Closing a connection still in its handshake ends that handshake too.
    await Promise.all(
      this.conns.map(async (c) => {
        c.closing ??= safeClose(c);
        await c.closing;
        await c.settled;
      }),
    );
  }
}
