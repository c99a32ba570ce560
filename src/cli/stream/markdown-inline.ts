// Inline Markdown of a streamed line: `code` in colour, **bold** and __bold__
// in bold. Text goes out as soon as it cannot start one of these; from an
// opening marker on, it waits until the span closes (then it is drawn styled)
// or the line ends without closing it (then it is printed as typed).
import type { Style } from "../style.ts";
import type { Paint } from "./word-wrap.ts";

export type Emit = (text: string, paint?: Paint) => void;

export class InlineMarkdown {
  private held = "";

  constructor(
    private readonly style: Style,
    private readonly emit: Emit,
  ) {}

  /** More of the line; `final` when the line (or the stream, for now) ends here. */
  push(text: string, final: boolean): void {
    this.held += text;
    const s = this.held;
    const paint = this.style;
    let i = 0;
    let plainFrom = 0;
    const plainUpTo = (end: number) => {
      if (end > plainFrom) this.emit(s.slice(plainFrom, end));
    };
    while (i < s.length) {
      const c = s[i];
      if (c === "`") {
        const close = s.indexOf("`", i + 1);
        if (s[i + 1] === "`" || (close < 0 && final)) {
          i++; // a literal backtick
          continue;
        }
        if (close < 0) break; // may still close
        plainUpTo(i);
        this.emit(s.slice(i + 1, close), paint.cyan);
        i = plainFrom = close + 1;
        continue;
      }
      if (c === "*" || c === "_") {
        if (s[i + 1] === undefined) {
          if (final) i++;
          break; // a lone trailing marker may become a pair
        }
        if (s[i + 1] !== c) {
          i++;
          continue;
        }
        const marker = c + c;
        const after = s[i + 2];
        if (after === undefined && !final) break;
        if (after === undefined || /\s/.test(after)) {
          i += 2; // not an opening: literal
          continue;
        }
        const close = closingMarker(s, marker, i + 3);
        if (close < 0) {
          if (!final) break;
          i += 2;
          continue;
        }
        plainUpTo(i);
        this.emit(s.slice(i + 2, close), paint.bold);
        i = plainFrom = close + 2;
        continue;
      }
      i++;
    }
    plainUpTo(i);
    this.held = s.slice(Math.max(i, plainFrom));
    if (final && this.held) {
      this.emit(this.held);
      this.held = "";
    }
  }
}

/** The closing `marker` of a bold span: preceded by a non-space, before any code span. */
function closingMarker(s: string, marker: string, from: number): number {
  for (let k = s.indexOf(marker, from); k >= 0; k = s.indexOf(marker, k + 1)) {
    if (s.slice(from - 1, k).includes("`")) return -1;
    if (!/\s/.test(s[k - 1])) return k;
  }
  return -1;
}
