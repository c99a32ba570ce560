// The MCP pool's vocabulary, apart from the SDK so that a runtime with no
// MCP servers never loads it (startup time and memory).
import type { RuntimeLog } from "../../base/runtime-log.ts";
export const MCP_CONNECT_TIMEOUT_MS = 30_000;

export interface McpServerSpec {
  name: string;
  /** Spawned over stdio when `url` is not set. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  /** A stdio server's working directory (the daemon gives the user's home). */
  cwd?: string;
  /** Streamable HTTP endpoint; takes precedence over `command`. */
  url?: string;
  /** Headers sent with every HTTP request (an editor's servers, docs/mcp.md#servers-from-an-editor). */
  headers?: Record<string, string>;
}

export interface McpConnectOptions {
  /** The daemon's environment. */
  baseEnv: Record<string, string | undefined>;
  /** The config's `[env]` table. */
  extraEnv: Record<string, string>;
  /** Per server: handshake plus tool listing (default 30 s); also the limit of each call. */
  timeoutMs?: number;
  /** A shorter limit for the handshake alone (local components answer at once or not at all). */
  handshakeTimeoutMs?: number;
  log: RuntimeLog;
  /** Sent as the client info version in the handshake (the daemon's version). */
  clientVersion?: string;
}

export interface McpServerStatus {
  name: string;
  status: "connected" | "connecting" | "failed";
  /** Empty when connected or connecting. */
  error: string;
  toolCount: number;
}

export interface McpToolInfo {
  name: string;
  description: string;
  server: string;
}

export interface McpCallResult {
  text: string;
  isError: boolean;
}

/** `call` of a name no live server provides. */
export class McpToolUnavailableError extends Error {
  constructor(readonly toolName: string) {
    super(`mcp tool '${toolName}' not available`);
  }
}

export interface McpPool {
  servers(): McpServerStatus[];
  /**
   * Settles once every server in `scope` (all when empty) is connected or has
   * failed — each within its connect timeout. Never rejects.
   */
  ready(scope: string[]): Promise<void>;
  connectedNames(): string[];
  /** Tools in server order (first wins a name); a non-empty scope keeps only those servers' tools. */
  tools(scope: string[]): McpToolInfo[];
  /** Throws McpToolUnavailableError for an unknown name, other errors for transport/protocol failures. */
  call(name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<McpCallResult>;
  close(): Promise<void>;
}

/** The pool of a runtime with no MCP servers. */
export const EMPTY_MCP_POOL: McpPool = {
  servers: () => [],
  ready: () => Promise.resolve(),
  connectedNames: () => [],
  tools: () => [],
  call: (name) => Promise.reject(new McpToolUnavailableError(name)),
  close: () => Promise.resolve(),
};
