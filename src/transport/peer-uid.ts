// Who is on the other end of a loopback TCP connection (Linux): the owner uid
// of the peer's socket, the one whose local end is our remote one and whose
// remote end is our local one. Asked of the kernel for that one socket
// (sock_diag); where that is refused, read from /proc/net/tcp{,6}.
import { closeSync, openSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { ownerInTable, procEndpoint } from "./proc-net-tcp.ts";
import { SockDiag, UNAVAILABLE } from "./sock-diag.ts";

export interface TcpPair {
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
}

const TABLES = [
  { path: "/proc/net/tcp", v6: false },
  { path: "/proc/net/tcp6", v6: true },
];

/** True where the peer's uid can be looked up (Linux with /proc). */
export function canLookUpPeers(): boolean {
  if (process.platform !== "linux") return false;
  // Its first bytes only: the whole table can take tens of milliseconds on a busy machine.
  let fd: number | undefined;
  try {
    fd = openSync(TABLES[0]!.path, "r");
    readSync(fd, Buffer.alloc(64));
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

type Waiting = { pair: TcpPair; resolve: (uid: number | undefined) => void };

/**
 * Looks peers up without blocking the event loop. The kernel answers for one
 * socket in microseconds, so that answer is synchronous; the first lookups
 * (while the FFI loads) and any the kernel refuses read /proc/net/tcp instead,
 * which costs the same for one socket as for all and can take tens of
 * milliseconds: connections that arrive while a read is running share the next.
 */
export class PeerUids {
  private waiting: Waiting[] = [];
  private reading = false;
  /** undefined: not asked for yet; null: not available here. */
  private diag: SockDiag | null | undefined;
  private opening?: Promise<void>;

  /** `useSockDiag` false: /proc only (tests of the fallback). */
  constructor(useSockDiag = true) {
    if (!useSockDiag) this.diag = null;
  }

  /** The uid owning the peer's end of `pair`, or undefined when there is no such socket any more. */
  uidOf(pair: TcpPair): number | undefined | Promise<number | undefined> {
    const diag = this.diag;
    if (diag) {
      const found = diag.lookup(pair.remoteAddress, pair.remotePort, pair.localAddress, pair.localPort);
      if (found !== UNAVAILABLE) return found?.uid;
    } else if (diag === undefined) {
      void this.ready();
    }
    return new Promise((resolve) => {
      this.waiting.push({ pair, resolve });
      if (!this.reading) void this.readBatches();
    });
  }

  /** Resolves once the kernel lookup is open, or known to be unavailable; true when lookups use it. */
  ready(): Promise<boolean> {
    this.opening ??=
      this.diag === undefined
        ? SockDiag.open()
            .then((d) => (this.diag = d))
            .then(() => {})
        : Promise.resolve();
    return this.opening.then(() => this.diag != null);
  }

  private async readBatches(): Promise<void> {
    this.reading = true;
    try {
      while (this.waiting.length > 0) {
        let batch = this.waiting.splice(0);
        // IPv4 first: IPv6 (v4-mapped) peers are rare, tcp6 is read only for them.
        for (const { path, v6 } of TABLES) {
          if (batch.length === 0) break;
          const text = await readFile(path, "utf8").catch(() => "");
          batch = batch.filter(({ pair, resolve }) => {
            const peer = procEndpoint(pair.remoteAddress, pair.remotePort, v6);
            const ours = procEndpoint(pair.localAddress, pair.localPort, v6);
            const uid = peer && ours ? ownerInTable(text, peer, ours) : undefined;
            if (uid === undefined) return true;
            resolve(uid);
            return false;
          });
        }
        for (const { resolve } of batch) resolve(undefined);
      }
    } finally {
      this.reading = false;
    }
  }
}
