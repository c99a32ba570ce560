// Which local process is at the other end of a connection (Linux): the peer
// credentials of a Unix socket (SO_PEERCRED, through libc), or for loopback
// TCP the owner of the client's socket inode in /proc/net/tcp{,6}.
import { readFileSync } from "node:fs";
import { readdir, readlink } from "node:fs/promises";
import { START_TIME, statFields } from "../runtime/tool-processes.ts";

const SOL_SOCKET = 1;
const SO_PEERCRED = 17;

type GetSockOpt = (fd: number, level: number, name: number, value: Int32Array, length: Uint32Array) => number;
let getsockopt: GetSockOpt | null | undefined;

/** libc's getsockopt through bun:ffi, or null where it cannot be loaded. */
async function loadGetsockopt(): Promise<GetSockOpt | null> {
  if (getsockopt !== undefined) return getsockopt;
  getsockopt = null;
  if (process.platform !== "linux") return null;
  try {
    const { dlopen, FFIType, ptr } = await import("bun:ffi");
    for (const name of ["libc.so.6", "libc.so"]) {
      try {
        const lib = dlopen(name, { getsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 } });
        getsockopt = (fd, level, opt, value, length) => lib.symbols.getsockopt(fd, level, opt, ptr(value), ptr(length)) as number;
        break;
      } catch {
        // try the next name
      }
    }
  } catch {
    // no FFI here
  }
  return getsockopt;
}

/** The pid at the other end of a Unix socket, or undefined. */
export async function unixPeerPid(fd: number): Promise<number | undefined> {
  const call = await loadGetsockopt();
  if (!call) return undefined;
  const cred = new Int32Array(3); // struct ucred { pid, uid, gid }
  const length = new Uint32Array([12]);
  return call(fd, SOL_SOCKET, SO_PEERCRED, cred, length) === 0 && cred[0]! > 0 ? cred[0] : undefined;
}

/** The inode of the client socket of a loopback TCP connection from `remotePort` to `localPort`. */
export function tcpClientInode(remotePort: number, localPort: number): string | undefined {
  const hex = (p: number) => p.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (cols.length < 10) continue;
      if (cols[1]!.endsWith(`:${hex(remotePort)}`) && cols[2]!.endsWith(`:${hex(localPort)}`)) return cols[9];
    }
  }
  return undefined;
}

/**
 * The process holding the socket with this inode, among the processes started
 * at or after `startedSince` (a /proc start time: a tool's processes are never
 * older than the tool). Asynchronous: a full /proc walk must not stall the daemon.
 */
export async function socketOwner(inode: string, startedSince = 0): Promise<number | undefined> {
  const target = `socket:[${inode}]`;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (startedSince > 0 && Number(statFields(pid)?.[START_TIME] ?? 0) < startedSince) continue;
    let fds: string[];
    try {
      fds = await readdir(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if ((await readlink(`/proc/${entry}/fd/${fd}`)) === target) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
