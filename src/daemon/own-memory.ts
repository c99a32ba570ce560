// The daemon's own memory as GetStats reports it (docs/protocol.md#the-daemon):
// resident and private bytes read from /proc on Linux, the resident size
// alone elsewhere, so users can see that memory stays bounded.
import { readFileSync } from "node:fs";

export function ownMemory(): { residentBytes: bigint; privateBytes: bigint } {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kib = (field: string) => BigInt(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024n;
    return { residentBytes: kib("VmRSS"), privateBytes: kib("RssAnon") };
  } catch {
    return { residentBytes: BigInt(process.memoryUsage.rss()), privateBytes: 0n };
  }
}
