// One-time pairing codes (docs/remote.md#pairing-a-device): in memory only,
// random, valid for 5 minutes and once; exchanged by the console for a new
// token of the name and scope asked for when the code was made.
import type { Scope } from "./token-names.ts";
import { hashSecret, MAX_SECRET_CHARS, newSecret, sameBytes } from "./secret.ts";

export const PAIRING_TTL_MS = 5 * 60_000;
/** Codes waiting at once; the oldest goes first (nobody needs more). */
const MAX_PENDING = 16;

interface Pending {
  hash: Uint8Array;
  name: string;
  scope: Scope;
  expiresMs: number;
}

export class PairingCodes {
  private pending: Pending[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PAIRING_TTL_MS,
  ) {}

  create(name: string, scope: Scope): { code: string; expiresMs: number } {
    this.prune();
    const code = newSecret(16);
    const expiresMs = this.now() + this.ttlMs;
    this.pending.push({ hash: hashSecret(code), name, scope, expiresMs });
    if (this.pending.length > MAX_PENDING) this.pending.shift();
    return { code, expiresMs };
  }

  /** Whether a pending code will make a token of this name. */
  reserves(name: string): boolean {
    this.prune();
    return this.pending.some((p) => p.name === name);
  }

  /** The name and scope of a live code, which is used up by this; undefined for an unknown, used or expired one. */
  take(code: string): { name: string; scope: Scope } | undefined {
    this.prune();
    if (code.length > MAX_SECRET_CHARS) return undefined;
    const hash = hashSecret(code);
    let found: Pending | undefined;
    for (const p of this.pending) if (sameBytes(hash, p.hash)) found = p;
    if (!found) return undefined;
    this.pending = this.pending.filter((p) => p !== found);
    return { name: found.name, scope: found.scope };
  }

  private prune(): void {
    const now = this.now();
    this.pending = this.pending.filter((p) => p.expiresMs > now);
  }
}
