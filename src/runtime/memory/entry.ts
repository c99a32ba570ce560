// One memory entry file: raw `name:`/`description:` front matter, then the
// content (docs/memory.md#memory-files). Deliberately not YAML: values are raw trimmed
// text, so a name like `a: b` or `"quoted"` survives a round trip unchanged.

export interface MemoryEntry {
  name: string;
  description: string;
  content: string;
}

/** Parses an entry file; throws an Error saying what is wrong. */
export function parseEntry(text: string): MemoryEntry {
  const body = text.replace(/\r\n/g, "\n").trim();
  if (!body.startsWith("---")) throw new Error("does not begin with ---");
  const afterOpen = body.indexOf("\n");
  if (afterOpen < 0) throw new Error("front matter is not closed");
  const lines = body.slice(afterOpen + 1).split("\n");
  const close = lines.findIndex((line) => line.startsWith("---"));
  if (close < 0) throw new Error("front matter is not closed");
  let name: string | undefined;
  let description = "";
  for (const line of lines.slice(0, close)) {
    if (line.startsWith("name:")) name = line.slice("name:".length).trim();
    else if (line.startsWith("description:")) description = line.slice("description:".length).trim();
  }
  if (name === undefined || name === "") throw new Error("missing name");
  const content = lines
    .slice(close + 1)
    .join("\n")
    .trim();
  return { name, description, content };
}

export function formatEntry(entry: MemoryEntry): string {
  return `---\nname: ${entry.name}\ndescription: ${entry.description}\n---\n\n${entry.content}\n`;
}

/** File stem for an entry name: `Luna's Vet Appointment!` → `luna-s-vet-appointment`. */
export function entrySlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^\p{Alphabetic}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "entry" : slug;
}
