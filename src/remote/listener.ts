// The remote listener (docs/remote.md): Bun.serve on `[system.remote] listen`,
// HTTP or TLS, serving the console's page, /login, /pair, /me, /logout and the
// /ws upgrade. Every request's Host is checked first (DNS rebinding), every
// browser request's Origin, and /ws needs a token (Bearer) or a session cookie
// before any upgrade. Tokens are never logged and never read from a URL.
import type { Server, ServerWebSocket } from "bun";
import { formatHostPort, type ListenAddress } from "../base/listen-address.ts";
import { consolePage } from "./console-page.ts";
import { WebSocketChannel } from "./ws-channel.ts";
import { clearCookie, sessionCookie, setCookie, type BrowserSessions } from "./browser-sessions.ts";
import type { FailedLogins } from "./login-limiter.ts";
import type { PairingCodes } from "./pairing.ts";
import type { TokenStore } from "./token-store.ts";
import type { Caller } from "./scoped-handlers.ts";
import { checkOrigin, hostAllowed } from "./request-guard.ts";
import { empty, json, MAX_BODY_BYTES, readField, text } from "./http-replies.ts";
import { MAX_FRAME_BYTES } from "../protocol/frame.ts";
import { MAX_SECRET_CHARS } from "./secret.ts";
import { ProtocolError } from "../protocol/errors.ts";

export interface RemoteLog {
  info(msg: string, fields?: { [key: string]: string | number | boolean }): void;
  warn(msg: string, fields?: { [key: string]: string | number | boolean }): void;
}

export interface ListenerOptions {
  address: ListenAddress;
  allowedHosts: readonly string[];
  tls?: { cert: string; key: string };
  tokens: TokenStore;
  sessions: BrowserSessions;
  limiter: FailedLogins;
  pairing: PairingCodes;
  log: RemoteLog;
  now: () => number;
  /** A WebSocket accepted for this caller: serve it. */
  onConnection(channel: WebSocketChannel<Conn>, caller: Caller): void;
}

export interface Conn {
  caller: Caller;
  expiresMs: number;
  channel?: WebSocketChannel<Conn>;
  timer?: ReturnType<typeof setTimeout>;
}

export interface RemoteListener {
  /** host:port actually bound. */
  readonly bound: string;
  readonly port: number;
  readonly tls: boolean;
  /** Open WebSocket connections per token name. */
  connections(): Map<string, number>;
  /** Closes the token's open connections at once (revoked). */
  closeToken(name: string): void;
  stop(): void;
}

/** A message a little over the protocol's maximum still reaches us (and is refused with 1008); far over, the WebSocket layer cuts it off (1009) unread. */
const WS_MAX_PAYLOAD = MAX_FRAME_BYTES + 64 * 1024;

/**
 * Open WebSockets one token may hold. The WebSocket layer holds a message as
 * it arrives (up to WS_MAX_PAYLOAD), outside [system.limits] frame_buffer_bytes:
 * this bounds what one token's connections can make the daemon hold. A
 * console tab uses three (requests, events, a run).
 */
export const MAX_CONNECTIONS_PER_TOKEN = 16;

/** Binds and serves; throws when the address cannot be bound. */
export function startListener(o: ListenerOptions): RemoteListener {
  const open = new Map<string, Set<WebSocketChannel<Conn>>>();
  const secure = o.tls !== undefined;

  /** A token's verdict, rate limited per address; a Response when refused. */
  const admitToken = (secret: string, address: string): Caller | Response => {
    const wait = o.limiter.waitFor(address);
    if (wait > 0) {
      o.limiter.turnedAway(address);
      return text(429, "too many failed logins from this address: wait and try again", { "retry-after": String(Math.ceil(wait / 1000)) });
    }
    if (secret.length > MAX_SECRET_CHARS) {
      o.limiter.failed(address, "token too long");
      return text(401, "not a crabtalk token");
    }
    const verdict = o.tokens.verify(secret);
    if (!verdict.ok) {
      o.limiter.failed(address, verdict.why === "expired" ? "expired token" : "unknown token");
      return text(401, verdict.why === "expired" ? "token expired" : "unknown token");
    }
    o.limiter.succeeded(address);
    return { token: verdict.token.name, scope: verdict.token.scope };
  };

  /** The caller a session cookie stands for; undefined when it is absent, unknown, or its token is gone or expired. */
  const cookieCaller = (req: Request): Caller | undefined | "too long" => {
    const value = sessionCookie(req.headers.get("cookie"));
    if (value === undefined) return undefined;
    if (value.length > MAX_SECRET_CHARS) return "too long";
    const name = o.sessions.tokenOf(value);
    const token = name === undefined ? undefined : o.tokens.get(name);
    if (!token || o.tokens.expired(token)) return undefined;
    return { token: token.name, scope: token.scope };
  };

  const loggedIn = (caller: Caller): Record<string, string> => {
    const cookie = setCookie(o.sessions.open(caller.token), secure);
    return { "set-cookie": cookie };
  };

  const upgrade = (req: Request, server: Server<Conn>, origin: "absent" | "own" | "foreign", address: string): Response | undefined => {
    if (req.method !== "GET") return text(405, "GET only");
    let caller: Caller | Response;
    const authorization = req.headers.get("authorization");
    if (authorization !== null) {
      const bearer = /^Bearer (\S+)$/i.exec(authorization.slice(0, MAX_SECRET_CHARS + 16));
      caller = bearer ? admitToken(bearer[1], address) : admitToken("x".repeat(MAX_SECRET_CHARS + 1), address);
    } else {
      // A cookie is a browser's: only its own console's page may use it.
      const fromCookie = cookieCaller(req);
      if (fromCookie === "too long") return text(401, "not a crabtalk session");
      if (fromCookie === undefined) return text(401, "log in first: an Authorization: Bearer token or the console's session cookie");
      if (origin !== "own") return text(403, "a browser session works from the console's own page only");
      caller = fromCookie;
    }
    if (caller instanceof Response) return caller;
    if ((open.get(caller.token)?.size ?? 0) >= MAX_CONNECTIONS_PER_TOKEN) {
      return text(429, `token '${caller.token}' has ${MAX_CONNECTIONS_PER_TOKEN} connections open, the most one token may: close one first`);
    }
    const token = o.tokens.get(caller.token);
    const data: Conn = { caller, expiresMs: token?.expires_ms ?? 0 };
    if (server.upgrade(req, { data })) return undefined;
    return text(400, "expected a WebSocket upgrade");
  };

  const handle = async (req: Request, server: Server<Conn>): Promise<Response | undefined> => {
    const host = req.headers.get("host");
    if (!hostAllowed(host, o.address.host, server.port ?? o.address.port, secure, o.allowedHosts)) {
      return text(403, "this Host is not the listener's address: add the name to [system.remote] allowed_hosts if it is yours");
    }
    const url = new URL(req.url);
    const origin = checkOrigin(req.headers.get("origin"), host ?? "", secure);
    // A page of another origin gets nothing, whatever it asks and whatever cookie its browser holds.
    if (origin === "foreign") return text(403, "requests from another origin are refused");
    const address = server.requestIP(req)?.address ?? "unknown";
    if (url.pathname === "/ws") return upgrade(req, server, origin, address);
    if (url.pathname === "/me") {
      const caller = cookieCaller(req);
      if (caller === undefined || caller === "too long") return text(401, "not logged in");
      return json(200, { name: caller.token, scope: caller.scope });
    }
    if (url.pathname !== "/login" && url.pathname !== "/pair" && url.pathname !== "/logout") return text(404, "not found");
    if (req.method !== "POST") return text(405, "POST only");
    // A browser always says where a POST comes from; one that does not is no console.
    if (origin !== "own") return text(403, "POST needs the console's own Origin");
    if (url.pathname === "/logout") {
      const value = sessionCookie(req.headers.get("cookie"));
      if (value !== undefined) o.sessions.close(value);
      return empty(204, { "set-cookie": clearCookie(secure) });
    }
    if (url.pathname === "/login") {
      const token = await readField(req, "token");
      if (token === undefined) return text(400, `expected a JSON body {"token": "ct_…"} of at most ${MAX_BODY_BYTES} bytes`);
      const caller = admitToken(token, address);
      if (caller instanceof Response) return caller;
      o.log.info("remote login", { name: caller.token, address });
      return empty(204, loggedIn(caller));
    }
    const code = await readField(req, "code");
    if (code === undefined) return text(400, `expected a JSON body {"code": "…"} of at most ${MAX_BODY_BYTES} bytes`);
    const wait = o.limiter.waitFor(address);
    if (wait > 0) {
      o.limiter.turnedAway(address);
      return text(429, "too many failed attempts from this address: wait and try again", { "retry-after": String(Math.ceil(wait / 1000)) });
    }
    const pairing = o.pairing.take(code);
    if (!pairing) {
      o.limiter.failed(address, "unknown pairing code");
      return text(401, "this pairing link is used, expired or unknown: ask for a new one");
    }
    let created: ReturnType<TokenStore["create"]>;
    try {
      created = o.tokens.create(pairing.name, pairing.scope);
    } catch (err) {
      if (err instanceof ProtocolError) return text(err.code, err.message);
      throw err;
    }
    o.log.info("device paired", { name: pairing.name, scope: pairing.scope, address });
    const caller = { token: created.record.name, scope: created.record.scope };
    return json(200, { name: caller.token, scope: caller.scope, token: created.token }, loggedIn(caller));
  };

  const track = (ws: ServerWebSocket<Conn>): WebSocketChannel<Conn> => {
    const channel = new WebSocketChannel(ws);
    ws.data.channel = channel;
    const name = ws.data.caller.token;
    let set = open.get(name);
    if (!set) open.set(name, (set = new Set()));
    set.add(channel);
    channel.onClose(() => {
      clearTimeout(ws.data.timer);
      set.delete(channel);
      if (set.size === 0 && open.get(name) === set) open.delete(name);
    });
    // A token that expires while connected ends its connections then.
    if (ws.data.expiresMs > 0) {
      const ms = Math.max(0, ws.data.expiresMs - o.now());
      ws.data.timer = setTimeout(() => channel.closeWith(1008, "token expired"), Math.min(ms, 2 ** 31 - 1));
      ws.data.timer.unref?.();
    }
    return channel;
  };

  const server = Bun.serve<Conn, "/">({
    hostname: o.address.host,
    port: o.address.port,
    development: false,
    maxRequestBodySize: 64 * 1024,
    ...(o.tls ? { tls: { cert: o.tls.cert, key: o.tls.key } } : {}),
    routes: { "/": consolePage },
    fetch: handle,
    error: () => text(500, "internal error"),
    websocket: {
      maxPayloadLength: WS_MAX_PAYLOAD,
      backpressureLimit: MAX_FRAME_BYTES * 2,
      closeOnBackpressureLimit: true,
      perMessageDeflate: false,
      open(ws) {
        ws.binaryType = "uint8array";
        const channel = track(ws);
        o.onConnection(channel, ws.data.caller);
      },
      message(ws, message) {
        ws.data.channel?.handleMessage(message as string | Uint8Array);
      },
      drain(ws) {
        ws.data.channel?.handleDrain();
      },
      close(ws) {
        ws.data.channel?.handleClose();
      },
    },
  });
  const port = server.port ?? o.address.port;
  return {
    bound: formatHostPort(o.address.host, port),
    port,
    tls: secure,
    connections: () => new Map([...open].map(([name, set]) => [name, set.size])),
    closeToken(name) {
      for (const channel of [...(open.get(name) ?? [])]) channel.closeWith(1008, "token revoked");
    },
    stop() {
      for (const set of open.values()) for (const channel of [...set]) channel.closeWith(1001, "remote listener stopped");
      void server.stop(true);
    },
  };
}
