// `host:port` of the remote listener ([system.remote] listen, docs/remote.md):
// parsed once for the config's check and for the listener, so both agree on
// what counts as loopback (the only place plain HTTP is allowed).

export interface ListenAddress {
  /** Without brackets: "127.0.0.1", "::1", "localhost", "0.0.0.0". */
  host: string;
  /** 0: the OS picks one. */
  port: number;
}

/** The address, or a message saying what is wrong with it. */
export function parseListenAddress(text: string): ListenAddress | string {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(text);
  if (!match) return 'must be "host:port" (an IPv6 host in brackets: "[::1]:6690")';
  const port = Number(match[3]);
  if (port > 65535) return "port must be at most 65535";
  return { host: match[1] ?? match[2], port };
}

/** `host:port` as a URL writes it (IPv6 in brackets). */
export function formatHostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** An IPv4 or IPv6 literal (no DNS name): what no DNS rebinding can point elsewhere. */
export function isIpLiteral(host: string): boolean {
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return host.split(".").every((p) => Number(p) <= 255);
  return host.includes(":") && /^[0-9A-Fa-f:.]+$/.test(host);
}

/** 0.0.0.0 or ::: every interface. */
export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "0:0:0:0:0:0:0:0";
}
