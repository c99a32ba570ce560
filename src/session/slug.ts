// File-name slugs of senders and titles (docs/sessions.md#files-and-names).

// Letters and digits in the Unicode sense (what Rust's `char::is_alphanumeric` keeps).
const KEEP = /^[\p{Alphabetic}\p{N}-]$/u;

/**
 * `TG:user-123` → `tg-user-123`: letters/digits (Unicode) and `-` kept, ASCII
 * letters lower-cased, everything else becomes `-`, runs of `-` collapse and
 * leading/trailing `-` are dropped.
 */
export function senderSlug(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = KEEP.test(ch) ? asciiLower(ch) : "-";
    if (c === "-" && out.endsWith("-")) continue;
    out += c;
  }
  return trimDashes(out);
}

/** A title's slug is made exactly like a sender's. */
export const titleSlug: (title: string) => string = senderSlug;

function asciiLower(ch: string): string {
  return ch >= "A" && ch <= "Z" ? ch.toLowerCase() : ch;
}

function trimDashes(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === "-") start++;
  while (end > start && s[end - 1] === "-") end--;
  return s.slice(start, end);
}
