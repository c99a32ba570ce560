// Markdown of streamed answers drawn for a terminal as they arrive, word by
// word: headings and **bold** in bold, `code` and code blocks in colour, list
// bullets as •, quotes with a bar, rules as a line; wrapped at word
// boundaries to the terminal's width. What a line is (heading, item, fence…)
// is decided from its first characters, held only until they are
// unambiguous; inline spans are held until they close (markdown-inline.ts).
// Used only when stdout is a terminal; a pipe gets the text as it came.
import type { Style } from "../style.ts";
import { InlineMarkdown } from "./markdown-inline.ts";
import { visibleWidth, WordWrap, type Paint } from "./word-wrap.ts";

const FENCE = /^\s*(```|~~~)/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
/** The start of a line that may still turn into something other than plain text. */
const UNDECIDED = [
  /^\s*$/, // indentation so far
  /^\s*(`{1,2}|~{1,2})$/, // a fence in the making
  /^\s{0,3}#{1,6}$/, // a heading's marks, no space yet
  /^\s{0,3}([-*_])(\s*\1)*\s*$/, // a rule, or an item, or bold, still
  /^\s*[-*+]$/, // an item's mark, any indentation
  /^\s*>$/, // a quote mark
];

type LineKind = "undecided" | "fence" | "code" | "text";

export class StreamingMarkdown {
  /** Raw text of the current line not yet drawn (while its kind is undecided, or a fence line). */
  private line = "";
  private kind: LineKind = "undecided";
  private inCode = false;
  /** Extra style of the whole line's text (a heading's bold). */
  private linePaint: Paint | undefined;
  private readonly wrap: WordWrap;
  private readonly inline: InlineMarkdown;

  /** `width`: the terminal's columns now (0 or less: do not wrap). */
  constructor(
    private readonly style: Style,
    width: () => number,
  ) {
    this.wrap = new WordWrap(() => {
      const w = width();
      return w > 0 ? w : Infinity;
    });
    this.inline = new InlineMarkdown(style, (text, paint) => {
      const lp = this.linePaint;
      this.wrap.feed(text, lp ? (s) => lp(paint ? paint(s) : s) : paint);
    });
  }

  /** What to print for `chunk`, the cursor being at `column`; undecided text waits. */
  push(chunk: string, column: number): string {
    this.wrap.col = column;
    const lines = chunk.split("\n");
    lines.forEach((part, i) => {
      this.add(part);
      if (i < lines.length - 1) this.endLine();
    });
    return this.wrap.take();
  }

  /** Prints everything held (the stream pauses for something else, or ends): the line goes on as plain text. */
  flush(column: number): string {
    this.wrap.col = column;
    if (this.kind === "undecided" && this.line) this.decide(true);
    if (this.kind === "undecided" && this.line) this.drawRule();
    if (this.kind === "fence") {
      this.drawFence();
      this.kind = this.inCode ? "code" : "text";
    }
    if (this.kind === "text") this.inline.push("", true);
    this.wrap.flushWord();
    return this.wrap.take();
  }

  private add(text: string): void {
    if (this.kind === "undecided" || this.kind === "fence") {
      this.line += text;
      if (this.kind === "undecided") this.decide(false);
      return;
    }
    if (this.kind === "code") this.wrap.raw(this.style.cyan(text), visibleWidth(text));
    else this.inline.push(text, false);
  }

  private endLine(): void {
    if (this.kind === "undecided") this.decide(true);
    if (this.kind === "fence") this.drawFence();
    else if (this.kind === "text") this.inline.push("", true);
    else if (this.kind === "undecided" && this.line) this.drawRule();
    this.wrap.endLine();
    this.line = "";
    this.kind = "undecided";
    this.linePaint = undefined;
  }

  private drawFence(): void {
    this.inCode = !this.inCode;
    this.wrap.raw(this.style.dim(this.line.trim()));
    this.line = "";
  }

  /** `---`, `***`, `___` (a whole line of one of them): a thematic break. */
  private drawRule(): void {
    this.wrap.raw(this.style.dim("─".repeat(40)));
    this.line = "";
    this.kind = "text";
  }

  /** Decides the line's kind once its start says (or the line is `complete`). */
  private decide(complete: boolean): void {
    const text = this.line;
    if (this.inCode) {
      if (FENCE.test(text)) this.kind = "fence";
      else if (complete || !/^\s*(`{0,2}|~{0,2})$/.test(text)) {
        this.kind = "code";
        this.line = "";
        this.wrap.raw(`  ${this.style.cyan(text)}`, 2 + visibleWidth(text));
      }
      return;
    }
    if (FENCE.test(text)) {
      this.kind = "fence";
      return;
    }
    if (!complete && UNDECIDED.some((re) => re.test(text))) return;
    if (complete && RULE.test(text)) return; // a rule: the caller draws it
    this.startText(text);
  }

  /** The line is text: its prefix drawn, the rest through the inline renderer. */
  private startText(text: string): void {
    const s = this.style;
    this.kind = "text";
    this.line = "";
    let m: RegExpExecArray | null;
    if ((m = /^\s{0,3}#{1,6}\s+/.exec(text))) {
      this.linePaint = s.bold;
      text = text.slice(m[0].length);
    } else if ((m = /^(\s*)[-*+]\s+/.exec(text))) {
      const indent = m[1];
      this.wrap.raw(`${indent}• `);
      this.wrap.setIndent(`${indent}  `, indent.length + 2);
      text = text.slice(m[0].length);
    } else if ((m = /^\s*>\s?/.exec(text))) {
      const bar = `${s.dim("│")} `;
      this.wrap.raw(bar, 2);
      this.wrap.setIndent(bar, 2);
      text = text.slice(m[0].length);
    }
    this.inline.push(text, false);
  }
}
