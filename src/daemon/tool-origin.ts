// Whether a connection comes from a tool's process tree, and whose
// (docs/security.md "Scope holds"). A process counts as a tool's when it or
// an ancestor is a process a tool started, when it is in the session a tool's
// process leads (a double fork keeps it), or when its environment carries a
// tool token. Each test alone can be dodged by a hostile command; the
// sandbox's pid namespace makes the ancestry one airtight.
import { readFileSync } from "node:fs";
import { PPID, SESSION, START_TIME, statFields, TOOL_TOKEN_VAR, type ToolProcesses } from "../runtime/tool-processes.ts";
import { socketOwner, tcpClientInode, unixPeerPid } from "./peer-process.ts";

/** What a connection's socket tells about its peer. */
export interface PeerSocket {
  fd?: number;
  remotePort?: number;
  localPort?: number;
}

/** Agents whose tools the peer process belongs to (empty: not a tool's, or unknown). */
export async function toolOrigin(peer: PeerSocket, processes: ToolProcesses): Promise<Set<string>> {
  const agents = new Set<string>();
  if (processes.empty || process.platform !== "linux") return agents;
  const pid = await peerPid(peer, processes.oldestStart);
  if (pid === undefined || pid === process.pid) return agents;
  const own = statFields(pid);
  const sessionAgent = own && processes.sessionAgent(Number(own[SESSION]));
  if (sessionAgent !== undefined) agents.add(sessionAgent);
  for (let p = pid, depth = 0; p > 1 && p !== process.pid && depth < 256; depth++) {
    const fields = statFields(p);
    if (!fields) break;
    const agent = processes.rootAgent(p, fields[START_TIME]);
    if (agent !== undefined) agents.add(agent);
    const token = tokenOf(p);
    const tokenAgent = token && processes.tokenAgent(token);
    if (tokenAgent) agents.add(tokenAgent);
    p = Number(fields[PPID]);
  }
  return agents;
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
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").find((v) => v.startsWith(prefix))?.slice(prefix.length);
  } catch {
    return undefined;
  }
}
