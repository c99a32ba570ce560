// Entry files and slugs (docs/memory.md#memory-files).
import { expect, test } from "bun:test";
import { entrySlug, formatEntry, parseEntry } from "../../../src/runtime/memory/entry.ts";

test("format writes exactly the specified layout and parses back", () => {
  const entry = { name: "Luna's vet", description: "vet visit: 3pm", content: "Bring the card.\n\nAnd the leash." };
  const text = formatEntry(entry);
  expect(text).toBe("---\nname: Luna's vet\ndescription: vet visit: 3pm\n---\n\nBring the card.\n\nAnd the leash.\n");
  expect(parseEntry(text)).toEqual(entry);
});

test("values are raw trimmed text, not YAML", () => {
  const e = parseEntry('---\nname:   "quoted" # not a comment  \ndescription: a: b\n---\nbody');
  expect(e).toEqual({ name: '"quoted" # not a comment', description: "a: b", content: "body" });
});

test("CRLF is normalised, surrounding whitespace trimmed, description optional", () => {
  const e = parseEntry("\r\n  ---\r\nname: x\r\n---\r\n\r\n line one\r\nline two \r\n\r\n");
  expect(e).toEqual({ name: "x", description: "", content: "line one\nline two" });
});

test("the front matter ends at the next line starting with ---; later --- lines are content", () => {
  const e = parseEntry("---\nname: x\ndescription: d\n---\n\nabove\n---\nbelow");
  expect(e.content).toBe("above\n---\nbelow");
});

test("malformed files are rejected", () => {
  expect(() => parseEntry("name: x\n---\n")).toThrow("does not begin with ---");
  expect(() => parseEntry("---\nname: x\ndescription: d\n")).toThrow("not closed");
  expect(() => parseEntry("---\ndescription: d\n---\nbody")).toThrow("missing name");
  expect(() => parseEntry("---\nname:   \n---\nbody")).toThrow("missing name");
  expect(() => parseEntry("")).toThrow();
});

test("slugs follow the spec examples", () => {
  expect(entrySlug("Luna's Vet Appointment!")).toBe("luna-s-vet-appointment");
  expect(entrySlug("---dashes---")).toBe("dashes");
  expect(entrySlug("!!!")).toBe("entry");
  expect(entrySlug("")).toBe("entry");
  expect(entrySlug("Café Über 42")).toBe("café-über-42");
  expect(entrySlug("東京 trip")).toBe("東京-trip");
  expect(entrySlug("a  --  b")).toBe("a-b");
});
