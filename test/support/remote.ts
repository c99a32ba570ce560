// Clients of the remote listener for tests (docs/remote.md): the console's
// own WebSocket FrameChannel (src/protocol/websocket-channel.ts) for the typed
// Client, on Bun's WebSocket with the headers and TLS options a browser would
// not let a page set; raw upgrades that report the HTTP refusal; the
// listener's address; and pinning a self-signed certificate.
import { Client } from "../../src/protocol/client.ts";
import { openWebSocketChannel, type WebSocketChannel } from "../../src/protocol/websocket-channel.ts";
import type { TestDaemon } from "./daemon.ts";
import { until } from "./until.ts";

export const REMOTE_CONFIG = `[system.remote]
enabled = true
listen = "127.0.0.1:0"
`;

/** The product's channel, with its socket at hand for a test that breaks the protocol (a text or oversize message). */
export type WsChannel = WebSocketChannel & { readonly ws: WebSocket };

export type WsOptions = { headers?: Record<string, string>; tls?: Record<string, unknown> };

/** Opens a WebSocket (Bun's takes `headers` and `tls`); resolves once open, or rejects with the close code when refused. */
export async function openWs(url: string, options: WsOptions = {}): Promise<WsChannel> {
  const ws = new WebSocket(url, options as unknown as string[]);
  return Object.assign(await openWebSocketChannel(ws), { ws });
}

export async function wsClient(url: string, options: WsOptions = {}): Promise<{ client: Client; channel: WsChannel }> {
  const channel = await openWs(url, options);
  return { client: new Client(channel), channel };
}

export function bearer(token: string): WsOptions {
  return { headers: { authorization: `Bearer ${token}` } };
}

/** The listener's base URL ("http://127.0.0.1:PORT/") once it serves. */
export async function remoteUrl(daemon: TestDaemon): Promise<string> {
  const client = await daemon.client();
  try {
    return await until(async () => (await client.getRemoteStatus()).url, { what: "the remote listener's URL" });
  } finally {
    await client.close();
  }
}

export function wsUrl(base: string): string {
  return `${base.replace(/^http/, "ws")}ws`;
}

/** An upgrade attempt by hand: the HTTP status the listener answered (101 when it upgraded). */
export async function upgradeStatus(base: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(`${base}ws`, {
    headers: {
      connection: "Upgrade",
      upgrade: "websocket",
      "sec-websocket-version": "13",
      "sec-websocket-key": Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64"),
      ...headers,
    },
    tls: { rejectUnauthorized: false },
  });
  const body = res.status === 101 ? "" : await res.text();
  return { status: res.status, body };
}

/**
 * Pinning as a client without a CA does it: read the certificate the server
 * presents, refuse it unless its SHA-256 is the printed fingerprint, then
 * trust exactly that certificate for the WebSocket (Bun's WebSocket has no
 * checkServerIdentity hook).
 */
export async function pinnedCertificate(host: string, port: number, fingerprint: string): Promise<string> {
  const tls = await import("node:tls");
  const raw: Buffer = await new Promise((resolve, reject) => {
    const sock = tls.connect({ host, port, rejectUnauthorized: false }, () => {
      const cert = sock.getPeerCertificate(true);
      sock.end();
      if (cert.fingerprint256 !== fingerprint) reject(new Error(`certificate ${cert.fingerprint256} is not the pinned ${fingerprint}`));
      else resolve(cert.raw);
    });
    sock.on("error", reject);
  });
  return `-----BEGIN CERTIFICATE-----\n${raw.toString("base64")}\n-----END CERTIFICATE-----\n`;
}
