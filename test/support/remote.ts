// Clients of the remote listener for tests (docs/remote.md): a WebSocket
// FrameChannel for the typed Client (one binary message per frame), raw
// upgrades that report the HTTP refusal, and the listener's address.
import { Client } from "../../src/protocol/client.ts";
import type { FrameEvent } from "../../src/protocol/frame.ts";
import type { FrameChannel } from "../../src/protocol/serve.ts";
import type { TestDaemon } from "./daemon.ts";
import { until } from "./until.ts";

export const REMOTE_CONFIG = `[system.remote]
enabled = true
listen = "127.0.0.1:0"
`;

/** A WebSocket as a FrameChannel: what the console does in the browser. */
export class WsChannel implements FrameChannel {
  closed = false;
  closeCode = 0;
  closeReason = "";
  private frameListener?: (e: FrameEvent) => void;
  private early: FrameEvent[] = [];
  private closeListeners: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.binaryType = "arraybuffer";
    ws.addEventListener("message", (e) => {
      const event: FrameEvent = { kind: "frame", payload: new Uint8Array(e.data as ArrayBuffer) };
      if (this.frameListener) this.frameListener(event);
      else this.early.push(event);
    });
    ws.addEventListener("close", (e) => {
      this.closed = true;
      this.closeCode = e.code;
      this.closeReason = e.reason;
      for (const l of this.closeListeners.splice(0)) l();
    });
  }

  onFrame(listener: (e: FrameEvent) => void): void {
    this.frameListener = listener;
    for (const e of this.early.splice(0)) listener(e);
  }
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }
  async send(payload: Uint8Array): Promise<void> {
    if (this.closed) throw new Error("connection closed");
    this.ws.send(payload);
  }
  async close(): Promise<void> {
    this.ws.close();
  }
  pauseReading(): void {}
  resumeReading(): void {}
}

export type WsOptions = { headers?: Record<string, string>; tls?: Record<string, unknown> };

/** Opens a WebSocket; resolves once open, or rejects with the close code when refused. */
export function openWs(url: string, options: WsOptions = {}): Promise<WsChannel> {
  const ws = new WebSocket(url, options as unknown as string[]);
  const channel = new WsChannel(ws);
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(channel), { once: true });
    ws.addEventListener("close", (e) => reject(new Error(`closed ${e.code} ${e.reason}`)), { once: true });
  });
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
