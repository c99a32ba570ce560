// Whether a connection comes from a tool's process tree, and whose
// (docs/security.md "Scope holds"): the agents, and the runs that started
// those tools (a run's own tool cannot wait for its run: docs/protocol.md "Runs"). A process counts as a tool's when it or
// an ancestor is a process a tool started, when it is in the session a tool's
// process leads (a double fork keeps it), or when its environment carries a
// tool token. Each test alone can be dodged by a hostile command; the
// sandbox's pid namespace makes the ancestry one airtight.
import { readFileSync } from "node:fs";
import { PPID, SESSION, START_TIME, statFields, TOOL_TOKEN_VAR, type ToolOwner, type ToolProcesses } from "../runtime/tool-processes.ts";
import { socketOwner, tcpClientInode, unixPeerPid } from "./peer-process.ts";

/** What a connection's socket tells about its peer. */
export interface PeerSocket {
  fd?: number;
  remotePort?: number;
  localPort?: number;
}

/** Whose tools a peer process belongs to. */
export interface ToolOrigin {
  /** Agents (empty: not a tool's, or unknown). */
  agents: Set<string>;
  /** Runs (Session.runId) whose tools they are. */
  runs: Set<string>;
}

export const NO_ORIGIN: ToolOrigin = { agents: new Set(), runs: new Set() };

/** The agents and runs whose tools the peer process belongs to. */
export async function toolOrigin(peer: PeerSocket, processes: ToolProcesses): Promise<ToolOrigin> {
  if (processes.empty || process.platform !== "linux") return NO_ORIGIN;
  const pid = await peerPid(peer, processes.oldestStart);
  if (pid === undefined || pid === process.pid) return NO_ORIGIN;
  const origin: ToolOrigin = { agents: new Set(), runs: new Set() };
  const add = (owner: ToolOwner | undefined) => {
    if (!owner) return;
    origin.agents.add(owner.agent);
    if (owner.run !== undefined) origin.runs.add(owner.run);
  };
  const own = statFields(pid);
  if (own) add(processes.sessionOwner(Number(own[SESSION])));
  for (let p = pid, depth = 0; p > 1 && p !== process.pid && depth < 256; depth++) {
    const fields = statFields(p);
    if (!fields) break;
    add(processes.rootOwner(p, fields[START_TIME]));
    const token = tokenOf(p);
    if (token) add(processes.tokenOwner(token));
    p = Number(fields[PPID]);
  }
  return origin;
}

async function peerPid(peer: PeerSocket, startedSince: number): Promise<number | undefined> {
  if (peer.fd !== undefined && peer.fd >= 0) {
    const pid = await unixPeerPid(peer.fd);
    if (pid !== undefined) return pid;
  }
  if (peer.remotePort && peer.localPort) {
    const inode = tcpClientInode(peer.remotePort, peer.localPort);
    if (inode !== undefined && inode !== "0") return socketOwner(inode, startedSince);
  }
  return undefined;
}

function tokenOf(pid: number): string | undefined {
  try {
    const prefix = `${TOOL_TOKEN_VAR}=`;
    return readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .find((v) => v.startsWith(prefix))
      ?.slice(prefix.length);
  } catch {
    return undefined;
  }
}
