// Remote tokens (docs/remote.md#tokens-and-scopes): `ct_` + 256 random bits,
// shown once; `<home>/remote/tokens.json` (0600, in a 0700 directory) keeps the
// name, scope, times and SHA-256 of each, never the token. A file that cannot
// be read lets nobody in and is never overwritten.
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomicSync } from "../base/atomic-file.ts";
import { conflict, internal, notFound } from "../protocol/errors.ts";
import { checkTokenName, isScope, type Scope } from "./token-names.ts";
import { hashSecret, MAX_SECRET_CHARS, newSecret, sameBytes } from "./secret.ts";

export const TOKEN_PREFIX = "ct_";
/** last_used is written to disk when it moved by more than this (a use per connection would be a write per connection). */
const LAST_USED_WRITE_MS = 60_000;
/** Longest expiry accepted: ten years. */
const MAX_EXPIRY_SECS = 10 * 365 * 24 * 3600;

export interface TokenRecord {
  name: string;
  scope: Scope;
  /** SHA-256 of the token, hex. */
  sha256: string;
  created_ms: number;
  last_used_ms: number;
  /** 0: never. */
  expires_ms: number;
}

export type Verdict = { ok: true; token: TokenRecord } | { ok: false; why: "unknown" | "expired" };

export class TokenStore {
  private tokens: TokenRecord[] | undefined;
  private loadError: string | undefined;
  private readonly written = new Map<string, number>();

  constructor(
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  list(): TokenRecord[] {
    return [...this.all()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): TokenRecord | undefined {
    return this.all().find((t) => t.name === name);
  }

  /** A new token; the secret is returned here and nowhere else. 409 when the name is taken. */
  create(name: string, scope: Scope, expiresInSecs = 0): { record: TokenRecord; token: string } {
    checkTokenName(name);
    const tokens = this.all();
    if (tokens.some((t) => t.name === name)) throw conflict(`a token named '${name}' exists (revoke it first, or pick another name)`);
    const token = TOKEN_PREFIX + newSecret(32);
    const now = this.now();
    const secs = Math.min(expiresInSecs, MAX_EXPIRY_SECS);
    const record: TokenRecord = {
      name,
      scope,
      sha256: Buffer.from(hashSecret(token)).toString("hex"),
      created_ms: now,
      last_used_ms: 0,
      expires_ms: secs > 0 ? now + secs * 1000 : 0,
    };
    this.save([...tokens, record]);
    return { record, token };
  }

  /** 404 when there is no such token. */
  revoke(name: string): TokenRecord {
    const tokens = this.all();
    const found = tokens.find((t) => t.name === name);
    if (!found) throw notFound(`no token named '${name.slice(0, 80)}'`);
    this.save(tokens.filter((t) => t !== found));
    return found;
  }

  /**
   * The token this secret is, looked up by comparing its hash with every
   * stored hash in constant time; its last use is recorded.
   */
  verify(secret: string): Verdict {
    if (secret.length > MAX_SECRET_CHARS || !secret.startsWith(TOKEN_PREFIX)) return { ok: false, why: "unknown" };
    let tokens: TokenRecord[];
    try {
      tokens = this.all();
    } catch {
      return { ok: false, why: "unknown" };
    }
    const hash = hashSecret(secret);
    let found: TokenRecord | undefined;
    for (const t of tokens) {
      if (sameBytes(hash, Buffer.from(t.sha256, "hex"))) found = t;
    }
    if (!found) return { ok: false, why: "unknown" };
    if (this.expired(found)) return { ok: false, why: "expired" };
    this.touch(found);
    return { ok: true, token: found };
  }

  /** Still there and not expired (an open connection's token, checked again). */
  valid(name: string): boolean {
    const t = this.get(name);
    return t !== undefined && !this.expired(t);
  }

  expired(t: TokenRecord): boolean {
    return t.expires_ms > 0 && t.expires_ms <= this.now();
  }

  private touch(t: TokenRecord): void {
    const now = this.now();
    t.last_used_ms = now;
    if (now - (this.written.get(t.name) ?? 0) < LAST_USED_WRITE_MS) return;
    try {
      this.save(this.all());
    } catch {
      // last_used is a hint: a full disk must not keep a valid token out
    }
  }

  private all(): TokenRecord[] {
    if (this.tokens) return this.tokens;
    if (this.loadError) throw internal(this.loadError);
    try {
      this.tokens = existsSync(this.path) ? parseTokens(readFileSync(this.path, "utf8")) : [];
    } catch (err) {
      this.loadError = `${this.path} cannot be read (${(err as Error).message}); fix or remove it, then restart the daemon`;
      throw internal(this.loadError);
    }
    return this.tokens;
  }

  private save(tokens: TokenRecord[]): void {
    const dir = dirname(this.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileAtomicSync(this.path, `${JSON.stringify({ tokens }, null, 2)}\n`, { mode: 0o600 });
    this.tokens = tokens;
    const now = this.now();
    for (const t of tokens) this.written.set(t.name, now);
  }
}

function parseTokens(text: string): TokenRecord[] {
  const data = JSON.parse(text) as { tokens?: unknown };
  if (!Array.isArray(data.tokens)) throw new Error("no tokens array");
  return data.tokens.map((t: Partial<TokenRecord>) => {
    if (typeof t.name !== "string" || typeof t.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(t.sha256) || !isScope(String(t.scope))) {
      throw new Error(`a malformed entry ${JSON.stringify(t.name ?? "")}`);
    }
    return {
      name: t.name,
      scope: t.scope as Scope,
      sha256: t.sha256,
      created_ms: Number(t.created_ms) || 0,
      last_used_ms: Number(t.last_used_ms) || 0,
      expires_ms: Number(t.expires_ms) || 0,
    };
  });
}
