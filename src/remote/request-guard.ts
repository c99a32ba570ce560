// Who a request may come from (docs/remote.md#what-is-refused-and-why). Host:
// the listen address, localhost, an IP literal or an allowed name, so a DNS
// name rebound to this machine by a web page gets nothing. Origin: a browser's
// request must come from the console's own origin, so another page (even one
// the owner has open, logged in) cannot drive the daemon with the cookie.
import { isIpLiteral } from "../base/listen-address.ts";

/** The Host header's host (IPv6 without brackets) and port; undefined when malformed. */
export function splitHost(header: string | null): { host: string; port: string } | undefined {
  if (!header || header.length > 300) return undefined;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(header);
  if (!match) return undefined;
  return { host: (match[1] ?? match[2]).toLowerCase(), port: match[3] ?? "" };
}

export function hostAllowed(header: string | null, listenHost: string, port: number, tls: boolean, allowedHosts: readonly string[]): boolean {
  const parsed = splitHost(header);
  // A browser leaves out the scheme's default port.
  if (!parsed || (parsed.port || (tls ? "443" : "80")) !== String(port)) return false;
  const { host } = parsed;
  return host === "localhost" || host === listenHost.toLowerCase() || isIpLiteral(host) || allowedHosts.some((h) => h.toLowerCase() === host);
}

/** The console's own origin, as a browser on this Host would send it. */
export function ownOrigin(hostHeader: string, tls: boolean): string {
  return `${tls ? "https" : "http"}://${hostHeader.toLowerCase()}`;
}

/** "ok" when the Origin is absent (not a browser) or the console's own; "foreign" otherwise. */
export function checkOrigin(origin: string | null, hostHeader: string, tls: boolean): "absent" | "own" | "foreign" {
  if (origin === null) return "absent";
  return origin.toLowerCase() === ownOrigin(hostHeader, tls) ? "own" : "foreign";
}
