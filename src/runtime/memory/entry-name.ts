// What makes a usable entry name, and the defaults a new entry gets from its
// text (docs/memory.md#entry-names). An entry's file is always named by the
// slug of its name, so a name never reaches a path; names that look like
// paths are still refused, so that nobody is led to believe one does.

/** Longest name accepted: its slug is the file name, which file systems cap at 255 bytes. */
export const NAME_MAX_CHARS = 200;
/** A default name: the text's first line, cut at a word boundary to at most this many characters. */
const DEFAULT_NAME_CHARS = 48;
const DEFAULT_DESCRIPTION_CHARS = 120;

/** Why `name` (trimmed) cannot name an entry, or undefined when it can. */
export function entryNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === "") return "name is empty";
  if (/[\r\n]/.test(trimmed)) return "name must be a single line";
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return "name has a control character";
  if (Array.from(trimmed).length > NAME_MAX_CHARS) return `name is longer than ${NAME_MAX_CHARS} characters`;
  const segments = trimmed.split(/[/\\]/);
  if (/^[/\\~]/.test(trimmed) || segments.some((s) => s === "." || s === "..")) {
    return `name '${trimmed}' looks like a file path: entries are names, their files are named by the daemon`;
  }
  return undefined;
}

/** The name an entry gets when none is given. */
export function defaultEntryName(content: string): string {
  return firstLineCut(content, DEFAULT_NAME_CHARS);
}

/** The description an entry gets when none is given. */
export function defaultEntryDescription(content: string): string {
  return firstLineCut(content, DEFAULT_DESCRIPTION_CHARS);
}

function firstLineCut(text: string, max: number): string {
  const line = (text.split("\n").find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}
