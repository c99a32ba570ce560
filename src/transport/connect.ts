// Connectors for clients: a FramedConnection to the daemon over UDS or TCP.
import { framedHandlers, type ConnectionSlot } from "./handlers.ts";
import type { FramedConnection } from "./connection.ts";

export type Endpoint = { unix: string } | { hostname: string; port: number };

/**
 * How long a Unix-socket connect keeps trying while the daemon's accept queue
 * is full. The kernel refuses a Unix connect at once when the listen backlog
 * (512 in Bun) is full — a burst of clients while the daemon's event loop is
 * busy — where TCP would retry the SYN by itself. A stale socket (no daemon)
 * is refused the same way, so the wait is bounded.
 */
const UNIX_RETRY_MS = 1500;

export function connect(endpoint: Endpoint): Promise<FramedConnection> {
  return "unix" in endpoint ? retryWhileRefused(() => open(endpoint)) : open(endpoint);
}

/** Tries a Unix-socket connect again while it is refused, for up to UNIX_RETRY_MS. */
async function retryWhileRefused<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = performance.now() + UNIX_RETRY_MS;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await attempt();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if ((code !== "ECONNREFUSED" && code !== "EAGAIN") || performance.now() + pause > deadline) throw err;
      await Bun.sleep(pause);
    }
  }
}

async function open(endpoint: Endpoint): Promise<FramedConnection> {
  let opened: FramedConnection | undefined;
  const socket = framedHandlers((conn, s) => {
    opened = conn;
    if ("port" in endpoint) s.setNoDelay(true);
  });
  if ("unix" in endpoint) await Bun.connect<ConnectionSlot>({ unix: endpoint.unix, socket, data: {} });
  else await Bun.connect<ConnectionSlot>({ hostname: endpoint.hostname, port: endpoint.port, socket, data: {} });
  if (!opened) throw new Error("connection did not open");
  return opened;
}

export function describeEndpoint(endpoint: Endpoint): string {
  return "unix" in endpoint ? endpoint.unix : `${endpoint.hostname}:${endpoint.port}`;
}
