// Connectors for clients: a FramedConnection to the daemon over UDS or TCP.
import { framedHandlers, type ConnectionSlot } from "./handlers.ts";
import type { FramedConnection } from "./connection.ts";

export type Endpoint = { unix: string } | { hostname: string; port: number };

export async function connect(endpoint: Endpoint): Promise<FramedConnection> {
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
