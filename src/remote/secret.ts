// Secrets of the remote listener: tokens, cookies and pairing codes are random
// base64url strings; only their SHA-256 is kept, compared in constant time.
import { randomBytes } from "../base/random-bytes.ts";

/** A fresh secret of `bytes` random bytes (at least 16: 128 bits), base64url. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** SHA-256 of the secret's text. */
export function hashSecret(secret: string): Uint8Array {
  return new Bun.CryptoHasher("sha256").update(secret).digest() as Uint8Array;
}

/** Equal bytes, in a time that does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Longest token, cookie or pairing code looked at: anything longer is refused
 * before it is hashed (a 10 KB "token" is no token).
 */
export const MAX_SECRET_CHARS = 128;
