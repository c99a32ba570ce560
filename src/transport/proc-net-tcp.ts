// The owner uid of one socket in a /proc/net/tcp or /proc/net/tcp6 text: the
// fallback where the kernel cannot be asked directly (src/transport/sock-diag.ts).
// Only the wanted line is read; the rest of the table is not parsed.
import { endianness } from "node:os";

const TIME_WAIT = "06";
const LISTEN = "0A";

/**
 * `127.0.0.1`, 6688 → `0100007F:1A20` as the kernel prints it in /proc/net/tcp
 * (`v6`: the tcp6 form, IPv4 addresses v4-mapped); undefined when the address
 * cannot appear in that table.
 */
export function procEndpoint(address: string, port: number, v6: boolean): string | undefined {
  let bytes = addressBytes(address);
  if (bytes === undefined) return undefined;
  if (v6 && bytes.length === 4) bytes = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes];
  if (!v6 && bytes.length !== 4) return undefined;
  let hex = "";
  // The kernel prints each 32-bit word in host byte order.
  for (let w = 0; w < bytes.length; w += 4) {
    const word = bytes.slice(w, w + 4);
    if (endianness() === "LE") word.reverse();
    for (const b of word) hex += b.toString(16).toUpperCase().padStart(2, "0");
  }
  return `${hex}:${port.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The uid owning the socket whose local end is `local` and remote end is
 * `remote` (both as procEndpoint spells them). TIME_WAIT entries (owned by
 * nobody, uid 0) and listeners are no one's socket.
 */
export function ownerInTable(text: string, local: string, remote: string): number | undefined {
  const needle = ` ${local} ${remote} `;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const end = text.indexOf("\n", at);
    // st tx_queue:rx_queue tr:tm->when retrnsmt uid …
    const cols = text
      .slice(at + needle.length, end < 0 ? undefined : end)
      .trim()
      .split(/\s+/);
    if (cols.length < 5 || cols[0] === TIME_WAIT || cols[0] === LISTEN) continue;
    const uid = Number(cols[4]);
    if (Number.isInteger(uid)) return uid;
  }
  return undefined;
}

/** 4 bytes for IPv4 (also `::ffff:a.b.c.d`), 16 for IPv6, undefined for anything else. */
function addressBytes(address: string): number[] | undefined {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(address);
  if (v4) {
    const bytes = v4.slice(1).map(Number);
    return bytes.every((b) => b <= 255) ? bytes : undefined;
  }
  if (!/^[0-9a-f:]+$/i.test(address)) return undefined;
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const left = halves[0] ? halves[0].split(":") : [];
  const right = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...left, ...Array<string>(missing).fill("0"), ...right];
  if (groups.some((g) => g.length === 0 || g.length > 4)) return undefined;
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}
