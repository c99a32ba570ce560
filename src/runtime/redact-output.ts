// The last line of secret keeping (docs/security.md): every configured secret
// value is replaced by `<redacted>` in a tool's output before the model, a
// session file, a log or a frame sees it.

export const REDACTED = "<redacted>";

/**
 * Shorter values are not treated as secrets: redacting "1" or "true" would
 * garble every output and protect nothing.
 */
export const MIN_SECRET_LENGTH = 8;

/** Replaces every occurrence of each secret (longest first, so a secret containing another is caught whole). */
export function redactOutput(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * The secrets worth redacting, deduplicated, longest first. Each is listed
 * also as JSON would escape it, since tools such as bash answer in JSON.
 */
export function secretList(values: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_SECRET_LENGTH) continue;
    all.add(v);
    all.add(JSON.stringify(v).slice(1, -1));
  }
  return [...all].sort((a, b) => b.length - a.length);
}
