// `remote enable --listen`: a host:port the remote listener binds (docs/remote.md).
// Only loopback may go without TLS; the daemon refuses the rest at start, and
// the CLI says so before it writes anything.

export interface ListenAddress {
  host: string;
  port: number;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `127.0.0.1:6690`, `0.0.0.0:443`, `[::1]:6690`, `myhost.lan:6690`; throws with the form it wants. */
export function parseListen(text: string): ListenAddress {
  const bad = (why: string) => new Error(`--listen '${text}': ${why}; use HOST:PORT, e.g. 127.0.0.1:6690 or [::1]:6690`);
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:\s]+):(\d{1,5})$/.exec(text.trim());
  if (!m) throw bad("not a host and port");
  const host = m[1]!;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) throw bad(`port ${port} is outside 1–65535`);
  if (host.startsWith("[")) return { host, port };
  const v4 = IPV4.exec(host);
  if (v4 ? v4.slice(1).some((part) => Number(part) > 255) : !HOSTNAME.test(host)) throw bad(`'${host}' is not a host`);
  return { host, port };
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
