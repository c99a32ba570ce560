// Plain-text tables for list commands: a header row, columns padded to the
// widest cell, the last column left ragged. Cells and one-line summaries hold
// what models wrote (titles, memory descriptions, search snippets): their
// control characters are written out (docs/security.md#what-reaches-your-terminal).
import { terminalSafe } from "./stream/terminal-safe.ts";

export function formatTable(header: string[], cells: string[][]): string {
  const rows = cells.map((r) => r.map(terminalSafe));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** One line, at most `max` characters (ellipsis when cut). */
export function oneLine(text: string, max: number): string {
  const flat = terminalSafe(text.replace(/\s+/g, " ").trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
