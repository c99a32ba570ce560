// Browser sessions (docs/remote.md#the-http-surface): the `crabtalk_session`
// cookie is a random secret of its own, bound to one token by name, kept in
// memory only (a daemon restart logs browsers out); revoking the token or
// logging out ends it at once. Never the token itself: a cookie can be dropped
// without revoking the token the owner typed in.
import { hashSecret, MAX_SECRET_CHARS, newSecret } from "./secret.ts";

export const COOKIE_NAME = "crabtalk_session";
/** Browsers remembered at once; the oldest login goes first. */
const MAX_SESSIONS = 256;
/** How long a browser keeps the cookie (the token's own expiry ends it sooner). */
export const COOKIE_MAX_AGE_SECS = 30 * 24 * 3600;

export class BrowserSessions {
  private readonly byHash = new Map<string, string>();

  /** A new cookie value bound to the token named. */
  open(tokenName: string): string {
    const secret = newSecret(32);
    this.byHash.set(key(secret), tokenName);
    if (this.byHash.size > MAX_SESSIONS) this.byHash.delete(this.byHash.keys().next().value as string);
    return secret;
  }

  /** The token name a cookie value is bound to. */
  tokenOf(secret: string): string | undefined {
    if (secret.length > MAX_SECRET_CHARS) return undefined;
    return this.byHash.get(key(secret));
  }

  close(secret: string): void {
    if (secret.length <= MAX_SECRET_CHARS) this.byHash.delete(key(secret));
  }

  /** Ends every browser session of a token (revoked). */
  closeToken(tokenName: string): void {
    for (const [hash, name] of this.byHash) if (name === tokenName) this.byHash.delete(hash);
  }
}

function key(secret: string): string {
  return Buffer.from(hashSecret(secret)).toString("hex");
}

/** The cookie's value in a Cookie header; undefined when absent. */
export function sessionCookie(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE_NAME) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setCookie(value: string, secure: boolean, maxAgeSecs = COOKIE_MAX_AGE_SECS): string {
  return `${COOKIE_NAME}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSecs}${secure ? "; Secure" : ""}`;
}

export function clearCookie(secure: boolean): string {
  return setCookie("", secure, 0);
}
