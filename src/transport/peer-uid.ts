// Who is on the other end of a loopback TCP connection (Linux): the owner uid
// of the peer's socket, read from /proc/net/tcp and /proc/net/tcp6. The peer's
// socket is the entry whose local address is our remote one and whose remote
// address is our local one.
import { closeSync, openSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { endianness } from "node:os";

export interface TcpPair {
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
}

const TABLES = ["/proc/net/tcp", "/proc/net/tcp6"];

/** True where the peer's uid can be looked up (Linux with /proc). */
export function canLookUpPeers(): boolean {
  if (process.platform !== "linux") return false;
  // Its first bytes only: the whole table can take tens of milliseconds on a busy machine.
  let fd: number | undefined;
  try {
    fd = openSync(TABLES[0], "r");
    readSync(fd, Buffer.alloc(64));
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Looks peers up without blocking the event loop. Reading /proc/net/tcp costs
 * the same for one socket as for all, and can take tens of milliseconds, so
 * connections that arrive while a read is running share the next one.
 */
export class PeerUids {
  private waiting: Array<{ pair: TcpPair; resolve: (uid: number | undefined) => void }> = [];
  private reading = false;

  constructor(private readonly tables: string[] = TABLES) {}

  /** The uid owning the peer's end of `pair`, or undefined when no table lists it. */
  uidOf(pair: TcpPair): Promise<number | undefined> {
    return new Promise((resolve) => {
      this.waiting.push({ pair, resolve });
      if (!this.reading) void this.readBatches();
    });
  }

  private async readBatches(): Promise<void> {
    this.reading = true;
    try {
      while (this.waiting.length > 0) {
        let batch = this.waiting.splice(0);
        // IPv4 first: IPv6 (v4-mapped) peers are rare, tcp6 is read only for them.
        for (const table of this.tables) {
          if (batch.length === 0) break;
          const owners = socketOwners(await readFile(table, "utf8").catch(() => ""));
          batch = batch.filter(({ pair, resolve }) => {
            const uid = owners.get(socketKey(endpointKey(pair.remoteAddress, pair.remotePort), endpointKey(pair.localAddress, pair.localPort)));
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

const TIME_WAIT = "06";
const LISTEN = "0A";

/** A socket as `local>remote`, both as endpointKey spells them. */
export function socketKey(local: string, remote: string): string {
  return `${local}>${remote}`;
}

/**
 * The owner uid of every socket in one /proc/net/tcp{,6} text, by socketKey.
 * TIME_WAIT entries (owned by nobody, uid 0) and listeners are left out.
 */
export function socketOwners(text: string): Map<string, number> {
  const owners = new Map<string, number>();
  for (const line of text.split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8 || cols[3] === TIME_WAIT || cols[3] === LISTEN) continue;
    const local = parseProcEndpoint(cols[1]);
    const remote = parseProcEndpoint(cols[2]);
    const uid = Number(cols[7]);
    if (local !== undefined && remote !== undefined && Number.isInteger(uid)) owners.set(socketKey(local, remote), uid);
  }
  return owners;
}

/** `0100007F:1A20` or a 32-hex-digit IPv6 form → `127.0.0.1:6688` (v4-mapped IPv6 folded to IPv4). */
export function parseProcEndpoint(field: string): string | undefined {
  const [hex, portHex] = field.split(":");
  if (!hex || !portHex || (hex.length !== 8 && hex.length !== 32)) return undefined;
  const bytes: number[] = [];
  // The kernel prints each 32-bit word in host byte order.
  for (let w = 0; w < hex.length; w += 8) {
    const word = [0, 2, 4, 6].map((i) => Number.parseInt(hex.slice(w + i, w + i + 2), 16));
    bytes.push(...(endianness() === "LE" ? word.reverse() : word));
  }
  return endpointKey(bytesToAddress(bytes), Number.parseInt(portHex, 16));
}

function bytesToAddress(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join(".");
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(":");
}

/** One spelling per address: `::ffff:127.0.0.1` → `127.0.0.1`, IPv6 groups expanded. */
export function endpointKey(address: string, port: number): string {
  return `${normalizeAddress(address)}:${port}`;
}

function normalizeAddress(address: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1];
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array(Math.max(missing, 0)).fill("0"), ...right];
  return groups.map((g) => Number.parseInt(g || "0", 16).toString(16)).join(":");
}
