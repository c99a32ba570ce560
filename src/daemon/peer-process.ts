// Which local process is at the other end of a connection (Linux): the peer
// credentials of a Unix socket (SO_PEERCRED, through libc), or for loopback
// TCP the owner of the client's socket inode in /proc/net/tcp{,6}.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

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

/** The process holding the socket with this inode (only the daemon user's processes can be looked into). */
export function socketOwner(inode: string): number | undefined {
  const target = `socket:[${inode}]`;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${entry}/fd/${fd}`) === target) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
