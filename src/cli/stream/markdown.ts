// Markdown of streamed answers drawn for a terminal, a line at a time:
// headings and **bold** in bold, `code` and code blocks in colour, list
// bullets as •, quotes with a bar. Used only when stdout is a terminal.
import type { Style } from "../style.ts";

export class MarkdownLines {
  private partial = "";
  private inCode = false;

  constructor(private readonly style: Style) {}

  /** Rendered text of the lines `chunk` completes; the unfinished rest waits. */
  push(chunk: string): string {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop() ?? "";
    return lines.map((l) => `${this.line(l)}\n`).join("");
  }

  /** The unfinished line, rendered (before anything else is printed). */
  flush(): string {
    const rest = this.partial;
    this.partial = "";
    return rest ? this.line(rest) : "";
  }

  private line(text: string): string {
    const s = this.style;
    const fence = /^\s*(```|~~~)/.test(text);
    if (fence) {
      this.inCode = !this.inCode;
      return s.dim(text.trim());
    }
    if (this.inCode) return `  ${s.cyan(text)}`;
    let m: RegExpExecArray | null;
    if ((m = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text))) return s.bold(this.inline(m[2]));
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(text)) return s.dim("─".repeat(40));
    if ((m = /^(\s*)[-*+]\s+(.*)$/.exec(text))) return `${m[1]}• ${this.inline(m[2])}`;
    if ((m = /^\s*>\s?(.*)$/.exec(text))) return `${s.dim("│")} ${this.inline(m[1])}`;
    return this.inline(text);
  }

  private inline(text: string): string {
    const s = this.style;
    // Code spans first: what is inside them is not Markdown.
    return text
      .split(/(`[^`]+`)/)
      .map((part) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 1
          ? s.cyan(part.slice(1, -1))
          : part.replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__/g, (_all, a, b) => s.bold(a ?? b)),
      )
      .join("");
  }
}
