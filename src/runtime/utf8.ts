// Cutting text to a byte budget without splitting a UTF-8 sequence.

/** `text` if it fits in `limit` bytes; else its longest prefix that does, plus `marker`. */
export function cutUtf8(text: string, limit: number, marker: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= limit) return text;
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back off continuation bytes
  return bytes.subarray(0, end).toString("utf8") + marker;
}
