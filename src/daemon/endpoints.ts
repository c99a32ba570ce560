// Binds the daemon's endpoints (docs/protocol.md#connecting): run/crabtalk.sock and
// loopback TCP 6688 (or an OS-assigned port), recording the port in run/crabtalk.port.
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "../transport/connect.ts";
import { listenTcp, listenUnix, type ConnectionHandler, type Listener } from "../transport/listen.ts";
import type { TcpPolicy } from "./tcp-peers.ts";

import { DEFAULT_TCP_PORT } from "../base/home-paths.ts";

export { DEFAULT_TCP_PORT };
export const TCP_HOST = "127.0.0.1";

export interface EndpointPaths {
  runDir: string;
  socket: string;
  portFile: string;
}

export interface BoundEndpoints {
  /** 0 when TCP is off. */
  tcpPort: number;
  /** Stops accepting and removes the socket and port files; open connections stay. */
  close(): void;
  /** Drops every connection still open. */
  dropConnections(): void;
}

export class DaemonAlreadyRunningError extends Error {
  constructor(socket: string) {
    super(`another crabtalk daemon is already running on ${socket} (stop it with 'crabtalk stop' or use another CRABTALK_HOME)`);
  }
}

export async function bindEndpoints(
  paths: EndpointPaths,
  onConnection: ConnectionHandler,
  tcpPolicy: TcpPolicy,
  preferredPort = DEFAULT_TCP_PORT,
): Promise<BoundEndpoints> {
  mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
  chmodSync(paths.runDir, 0o700);
  const listeners: Listener[] = [];
  if (process.platform !== "win32") {
    await removeStaleSocket(paths.socket);
    listeners.push(listenUnix(paths.socket, onConnection));
    chmodSync(paths.socket, 0o600);
  }
  let tcpPort = 0;
  rmSync(paths.portFile, { force: true });
  if (tcpPolicy.listen) {
    let tcp: Listener;
    try {
      tcp = listenTcp(TCP_HOST, preferredPort, onConnection, tcpPolicy.admit);
    } catch {
      // Port taken (often by another daemon on another home): let the OS pick.
      tcp = listenTcp(TCP_HOST, 0, onConnection, tcpPolicy.admit);
    }
    listeners.push(tcp);
    tcpPort = tcp.port ?? 0;
    writeFileSync(paths.portFile, String(tcpPort), { mode: 0o600 });
  } else if (listeners.length === 0) {
    throw new Error("no endpoint to listen on: on Windows the daemon is reached over TCP only; set [system.tcp] enabled = true in config.toml");
  }
  return {
    tcpPort,
    close() {
      for (const l of listeners) l.stop();
      rmSync(paths.socket, { force: true });
      rmSync(paths.portFile, { force: true });
    },
    dropConnections() {
      for (const l of listeners) l.stop(true);
    },
  };
}

/**
 * Refuses at once when a daemon already answers on this home's socket: the
 * daemon calls it before it starts anything (MCP servers, components), so a
 * second `crabtalk daemon` exits without a child left behind. Binding checks
 * again, for two daemons started at the same moment.
 */
export async function refuseIfRunning(socket: string): Promise<void> {
  if (process.platform !== "win32" && (await socketAnswers(socket))) throw new DaemonAlreadyRunningError(socket);
}

/** A socket file nobody answers on is left over from a crash; a live one means refuse. */
async function removeStaleSocket(socket: string): Promise<void> {
  if (!existsSync(socket)) return;
  if (await socketAnswers(socket)) throw new DaemonAlreadyRunningError(socket);
  rmSync(socket, { force: true });
}

async function socketAnswers(socket: string): Promise<boolean> {
  if (!existsSync(socket)) return false;
  try {
    const conn = await connect({ unix: socket });
    conn.abort();
    return true;
  } catch {
    return false;
  }
}
