// Answer text laid out for a terminal word by word: a word is printed once it
// is complete (whitespace or the line's end follows it), on the current row
// if it fits, else on the next one after the line's indent. The terminal
// would otherwise break long lines mid-word at its edge.

export type Paint = (s: string) => string;

const plain: Paint = (s) => s;

/** Visible width: code points (wide characters count as one; good enough for prose). */
export function visibleWidth(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export class WordWrap {
  /** The cursor's column on the terminal row (synced by the caller before each batch). */
  col = 0;
  /** The current word's pieces, each with its style; printed when the word ends. */
  private word: { text: string; paint: Paint }[] = [];
  /** Whitespace since the last word: printed before the next word if it fits on the row, dropped at a wrap. */
  private space = "";
  /** What continuation rows of this line start with (a list item's hanging indent, a quote bar). */
  private indent = { text: "", width: 0 };
  private out = "";

  constructor(private readonly width: () => number) {}

  /** Starts a line whose wrapped rows begin with `text` (already styled) of `width` columns. */
  setIndent(text: string, width: number): void {
    this.indent = { text, width };
  }

  /** Text printed as is, unwrapped (a prefix such as "• ", a code line). */
  raw(text: string, width = visibleWidth(text)): void {
    this.placeWord();
    this.out += this.space + text;
    this.col += visibleWidth(this.space) + width;
    this.space = "";
  }

  /** Text of the line, in one style: complete words are laid out, the last one waits for what follows. */
  feed(text: string, paint: Paint = plain): void {
    for (const part of text.split(/(\s+)/)) {
      if (!part) continue;
      if (/^\s/.test(part)) {
        this.placeWord();
        this.space += part;
      } else {
        this.word.push({ text: part, paint });
      }
    }
  }

  /** Prints the word in progress (the stream paused: show what there is). */
  flushWord(): void {
    this.placeWord();
  }

  /** Ends the line: its last word, then a newline. */
  endLine(): void {
    this.placeWord();
    this.out += "\n";
    this.col = 0;
    this.space = "";
    this.indent = { text: "", width: 0 };
  }

  /** What to print for everything laid out since the last take. */
  take(): string {
    const s = this.out;
    this.out = "";
    return s;
  }

  private placeWord(): void {
    if (this.word.length === 0) return;
    const width = visibleWidth(this.word.map((p) => p.text).join(""));
    const styled = this.word.map((p) => p.paint(p.text)).join("");
    this.word = [];
    const limit = this.width();
    const space = visibleWidth(this.space);
    const rowEmpty = this.col <= this.indent.width;
    if (rowEmpty || this.col + space + width <= limit) {
      // At a row's start only the line's own leading spaces are kept (not those before a wrap).
      this.out += rowEmpty && this.col > 0 ? "" : this.space;
      this.col += (rowEmpty && this.col > 0 ? 0 : space) + width;
    } else {
      this.out += `\n${this.indent.text}`;
      this.col = this.indent.width + width;
    }
    this.out += styled;
    this.space = "";
    // A word wider than the row is broken by the terminal: the cursor ends up on its last row.
    if (this.col > limit) this.col = ((this.col - 1) % limit) + 1;
  }
}
