// The owner of one TCP socket, asked of the kernel by its address and ports
// (Linux sock_diag over netlink, through libc via bun:ffi). The kernel finds
// the socket in its connection hash: the cost does not grow with the number
// of sockets on the machine, unlike reading /proc/net/tcp, which prints them
// all. One request and one reply buffer serve every lookup.

const AF_NETLINK = 16;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const NLMSG_ERROR = 2;
const NLM_F_REQUEST = 1;
const AF_INET = 2;
const IPPROTO_TCP = 6;
const TCP_TIME_WAIT = 6;
const ENOENT = 2;
/** struct nlmsghdr (16) + struct inet_diag_req_v2 (56). */
const REQUEST_BYTES = 72;
/** Offsets in the reply: struct inet_diag_msg after the nlmsghdr. */
const REPLY_STATE = 17;
const REPLY_UID = 80;
const REPLY_INODE = 84;

/** The peer's socket, as the kernel knows it. */
export interface SocketOwner {
  uid: number;
  inode: number;
}

/** `undefined`: no such socket (closed, or only its TIME_WAIT remains). */
export type Lookup = SocketOwner | undefined;

/** The lookup failed for a reason other than "no such socket": ask /proc instead. */
export const UNAVAILABLE = Symbol("sock_diag unavailable");

type Libc = {
  socket(domain: number, type: number, protocol: number): number;
  send(fd: number, buf: Uint8Array, len: number, flags: number): number | bigint;
  recv(fd: number, buf: Uint8Array, len: number, flags: number): number | bigint;
  close(fd: number): number;
};

export class SockDiag {
  private readonly request = new Uint8Array(REQUEST_BYTES);
  private readonly requestView = new DataView(this.request.buffer);
  private readonly reply = new Uint8Array(512);
  private readonly replyView = new DataView(this.reply.buffer);
  private seq = 0;

  private constructor(
    private readonly libc: Libc,
    private readonly fd: number,
  ) {
    const v = this.requestView;
    v.setUint32(0, REQUEST_BYTES, true);
    v.setUint16(4, SOCK_DIAG_BY_FAMILY, true);
    v.setUint16(6, NLM_F_REQUEST, true);
    this.request[17] = IPPROTO_TCP;
    v.setUint32(20, 0xffffffff, true); // every state
    v.setUint32(64, 0xffffffff, true); // INET_DIAG_NOCOOKIE
    v.setUint32(68, 0xffffffff, true);
  }

  /** A netlink socket for lookups, or null where there is none (not Linux, no FFI, sock_diag refused). */
  static async open(): Promise<SockDiag | null> {
    if (process.platform !== "linux") return null;
    try {
      const { dlopen, FFIType } = await import("bun:ffi");
      for (const name of ["libc.so.6", "libc.so"]) {
        try {
          const { symbols } = dlopen(name, {
            socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
            send: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
            recv: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
            close: { args: [FFIType.i32], returns: FFIType.i32 },
          });
          const libc = symbols as unknown as Libc;
          const fd = libc.socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
          return fd < 0 ? null : new SockDiag(libc, fd);
        } catch {
          // try the next name
        }
      }
    } catch {
      // no FFI here
    }
    return null;
  }

  /**
   * The owner of the socket whose local end is `address:port` and whose
   * remote end is `peerAddress:peerPort` (dotted IPv4, or IPv4-mapped IPv6).
   */
  lookup(address: string, port: number, peerAddress: string, peerPort: number): Lookup | typeof UNAVAILABLE {
    const v = this.requestView;
    if (!writeIpv4(v, 28, address) || !writeIpv4(v, 44, peerAddress)) return UNAVAILABLE;
    v.setUint16(24, port, false);
    v.setUint16(26, peerPort, false);
    // An IPv4 connection made from an IPv6 socket is in the same table: AF_INET finds it too.
    return this.ask(AF_INET);
  }

  private ask(family: number): Lookup | typeof UNAVAILABLE {
    const seq = (this.seq = (this.seq + 1) >>> 0);
    this.requestView.setUint32(8, seq, true);
    this.request[16] = family;
    if (Number(this.libc.send(this.fd, this.request, REQUEST_BYTES, 0)) !== REQUEST_BYTES) return UNAVAILABLE;
    // The kernel answers while handling the send: the reply is already queued.
    for (;;) {
      const got = Number(this.libc.recv(this.fd, this.reply, this.reply.length, 0));
      if (got < 16) return UNAVAILABLE;
      const r = this.replyView;
      if (r.getUint32(8, true) !== seq) continue; // a stale reply to an earlier request
      const type = r.getUint16(4, true);
      if (type === NLMSG_ERROR) return r.getInt32(16, true) === -ENOENT ? undefined : UNAVAILABLE;
      if (type !== SOCK_DIAG_BY_FAMILY || got < REPLY_INODE + 4) return UNAVAILABLE;
      // A TIME_WAIT socket belongs to nobody any more (the kernel reports uid 0).
      if (this.reply[REPLY_STATE] === TCP_TIME_WAIT) return undefined;
      return { uid: r.getUint32(REPLY_UID, true), inode: r.getUint32(REPLY_INODE, true) };
    }
  }

  close(): void {
    this.libc.close(this.fd);
  }
}

/** Writes a dotted IPv4 address (or `::ffff:a.b.c.d`) as 4 network-order bytes, the other 12 zero; false for anything else. */
function writeIpv4(view: DataView, offset: number, address: string): boolean {
  let start = 0;
  if (address.length > 7 && address.charCodeAt(0) === 58 /* ':' */) {
    start = address.lastIndexOf(":") + 1;
    if (address.slice(0, start).toLowerCase() !== "::ffff:") return false;
  }
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = start; i <= address.length; i++) {
    const c = i < address.length ? address.charCodeAt(i) : 46; /* '.' ends the last part */
    if (c === 46) {
      if (digits === 0 || value > 255 || part > 3) return false;
      view.setUint8(offset + part, value);
      part++;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
    } else {
      return false;
    }
  }
  if (part !== 4) return false;
  for (let i = 4; i < 16; i++) view.setUint8(offset + i, 0);
  return true;
}
