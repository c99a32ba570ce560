// Random bytes from Web Crypto: node:crypto's module costs ~5 MiB of a
// daemon's memory and milliseconds of its start (issue 11) for this alone.

/** `n` cryptographically random bytes, as node:crypto's randomBytes gives them. */
export function randomBytes(n: number): Buffer {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(n)));
}
