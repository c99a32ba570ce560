// Remote access as the daemon holds it (docs/remote.md): the token store, the
// pairing codes, the browser sessions, the login limiter and the listener,
// started, stopped and rebound from `[system.remote]` at start and on reload.
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { isAbsolute, join } from "node:path";
import type { RemoteConfig } from "../config/schema.ts";
import { formatHostPort, isWildcardHost, parseListenAddress, type ListenAddress } from "../base/listen-address.ts";
import type { Handlers } from "../protocol/server.ts";
import { BrowserSessions } from "./browser-sessions.ts";
import { FailedLogins } from "./login-limiter.ts";
import { PairingCodes } from "./pairing.ts";
import { TokenStore } from "./token-store.ts";
import { scopedHandlers, TokenRuns } from "./scoped-handlers.ts";
import { startListener, type RemoteListener, type RemoteLog } from "./listener.ts";
import { fingerprintOf, selfSignedCertificate } from "./self-signed.ts";
import type { WebSocketChannel } from "./ws-channel.ts";

export interface RemotePaths {
  home: string;
  remoteDir: string;
  remoteTokens: string;
}

/** How the daemon serves a connection (its connection server, with its limits). */
export interface RemoteServing {
  handlers: Handlers;
  accept(channel: WebSocketChannel<unknown>, handlers: Handlers): void;
}

interface Prepared {
  address: ListenAddress;
  urlHost: string;
  tls?: { cert: string; key: string; fingerprint: string };
  allowedHosts: string[];
  settings: string;
}

interface Running {
  prepared: Prepared;
  listener: RemoteListener;
  /** What it was started with: a reload with the same settings leaves it alone. */
  settings: string;
  urlHost: string;
  fingerprint: string;
}

export class RemoteAccess {
  readonly tokens: TokenStore;
  readonly pairing: PairingCodes;
  readonly sessions = new BrowserSessions();
  readonly limiter: FailedLogins;
  readonly runs = new TokenRuns();
  private serving?: RemoteServing;
  private running?: Running;
  private enabled = false;
  private error = "";

  constructor(
    private readonly paths: RemotePaths,
    readonly log: RemoteLog,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = new TokenStore(paths.remoteTokens, now);
    this.pairing = new PairingCodes(now);
    this.limiter = new FailedLogins(log, now);
  }

  /** Connections are served by the daemon's connection server once it exists. */
  attach(serving: RemoteServing): void {
    this.serving = serving;
  }

  /**
   * Makes the listener match the config: starts, stops or rebinds it. Throws
   * (one line) when it cannot serve as configured; the listener that was
   * running then keeps running where that is possible.
   */
  async apply(config: RemoteConfig): Promise<void> {
    if (!config.enabled) {
      this.enabled = false;
      this.error = "";
      this.stopListener();
      return;
    }
    const prepared = this.prepare(config);
    if (this.running?.settings === prepared.settings) {
      this.enabled = true;
      this.error = "";
      return;
    }
    const previous = this.running;
    // The same port cannot be bound twice: the old listener goes first, and comes back if the new one fails.
    const samePort = previous !== undefined && previous.listener.port === prepared.address.port;
    if (samePort) this.stopListener();
    let running: Running;
    try {
      running = this.start(prepared);
    } catch (err) {
      if (samePort && previous) {
        try {
          this.running = this.start(previous.prepared);
        } catch {
          // the old one cannot come back either: status says why
        }
      }
      throw new Error(`cannot listen on ${config.listen}: ${(err as Error).message}`);
    }
    if (!samePort) this.stopListener();
    this.running = running;
    this.enabled = true;
    this.error = "";
    this.log.info("remote listener on", { listen: running.listener.bound, tls: running.listener.tls, url: this.consoleUrl() });
  }

  /** Address, host names and certificate of a config; throws (one line) on a certificate that cannot be read or made. */
  private prepare(config: RemoteConfig): Prepared {
    const address = parseListenAddress(config.listen);
    if (typeof address === "string") throw new Error(`[system.remote] listen: ${address}`);
    const urlHost = isWildcardHost(address.host) ? lanAddress() : address.host;
    let tls: Prepared["tls"];
    try {
      if (config.tls === "self-signed") {
        tls = selfSignedCertificate(
          this.paths.remoteDir,
          [address.host, urlHost].filter((h) => !isWildcardHost(h)),
        );
      } else if (config.tls_cert && config.tls_key) {
        const cert = readFileSync(this.resolve(config.tls_cert), "utf8");
        tls = { cert, key: readFileSync(this.resolve(config.tls_key), "utf8"), fingerprint: fingerprintOf(cert) };
      }
    } catch (err) {
      throw new Error(`[system.remote] TLS: ${(err as Error).message}`);
    }
    const settings = JSON.stringify([config.listen, config.allowed_hosts, tls?.fingerprint ?? "", tls ? hashText(tls.key) : ""]);
    return { address, urlHost, tls, allowedHosts: config.allowed_hosts, settings };
  }

  private start(prepared: Prepared): Running {
    const listener = startListener({
      address: prepared.address,
      allowedHosts: prepared.allowedHosts,
      tls: prepared.tls,
      tokens: this.tokens,
      sessions: this.sessions,
      limiter: this.limiter,
      pairing: this.pairing,
      log: this.log,
      now: this.now,
      onConnection: (channel, caller) => {
        if (!this.serving) return void channel.closeWith(1013, "daemon starting");
        this.serving.accept(channel as WebSocketChannel<unknown>, scopedHandlers(this.serving.handlers, caller, this.runs));
      },
    });
    return { listener, settings: prepared.settings, urlHost: prepared.urlHost, fingerprint: prepared.tls?.fingerprint ?? "", prepared };
  }

  /** At daemon start: a listener that cannot bind is reported, not fatal (the local daemon is still of use). */
  async applyAtStart(config: RemoteConfig): Promise<void> {
    try {
      await this.apply(config);
    } catch (err) {
      this.enabled = config.enabled;
      this.error = (err as Error).message;
      this.log.warn("remote listener not started", { error: this.error });
    }
  }

  consoleUrl(): string {
    const r = this.running;
    if (!r) return "";
    return `${r.listener.tls ? "https" : "http"}://${formatHostPort(r.urlHost, r.listener.port)}/`;
  }

  status() {
    const r = this.running;
    return {
      enabled: this.enabled,
      listen: r?.listener.bound ?? "",
      url: this.consoleUrl(),
      tls: r?.listener.tls ?? false,
      fingerprint: r?.fingerprint ?? "",
      connections: r ? [...r.listener.connections()].map(([tokenName, count]) => ({ tokenName, count })) : [],
      error: this.error,
    };
  }

  /** Deletes the token; its cookies and open connections end at once. */
  revoke(name: string): void {
    this.tokens.revoke(name);
    this.sessions.closeToken(name);
    this.runs.forget(name);
    this.running?.listener.closeToken(name);
    this.log.info("remote token revoked", { name });
  }

  stop(): void {
    this.stopListener();
  }

  private stopListener(): void {
    this.running?.listener.stop();
    this.running = undefined;
  }

  private resolve(path: string): string {
    return isAbsolute(path) ? path : join(this.paths.home, path);
  }
}

function hashText(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

/** The first non-internal IPv4 address: what a device on the LAN reaches a wildcard listener by. */
function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return "127.0.0.1";
}
