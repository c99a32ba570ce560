// Renders stream events for people: answer text as it arrives, thinking and
// tool activity where the caller wants them (or nowhere). Keeps lines tidy
// when several kinds of output share one terminal.
import type { StreamEvent, ToolCallInfo } from "../../protocol/gen/crabtalk_pb.ts";
import { styleFor, type Style } from "../style.ts";
import { StreamingMarkdown } from "./markdown.ts";
import { visibleWidth } from "./word-wrap.ts";
import { describeCall, describeResult } from "./tool-summary.ts";
import { terminalSafe } from "./terminal-safe.ts";

export interface RawStream {
  write(s: string): unknown;
  isTTY?: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
}

/** One output stream and whether its current line is unfinished. */
export class Out {
  readonly style: Style;
  private lastChar = "\n";
  private kind = "";
  private col = 0;

  constructor(private readonly raw: RawStream) {
    this.style = styleFor(raw);
  }

  get tty(): boolean {
    return Boolean(this.raw.isTTY);
  }

  /** The terminal's width (0 when unknown). */
  get columns(): number {
    return this.raw.columns ?? 0;
  }

  /** The cursor's column after what was written (escape codes take none). */
  get column(): number {
    return this.col;
  }

  get midLine(): boolean {
    return this.lastChar !== "\n";
  }

  get lineKind(): string {
    return this.kind;
  }

  /** The screen was cleared: the cursor is at the start of a row. */
  cleared(): void {
    this.col = 0;
    this.lastChar = "\n";
  }

  put(s: string, kind: string): void {
    if (!s) return;
    this.raw.write(s);
    // Trailing colour codes do not move the cursor: look past them. (Plain text, as
    // in a pipe, skips the pattern: compiling it costs a short command, issue 11.)
    const shown = s.includes("\x1b") ? s.replace(/(\x1b\[[0-9;]*m)+$/, "") : s;
    this.lastChar = shown.at(-1) ?? this.lastChar;
    this.kind = kind;
    if (this.tty) {
      const visible = s.includes("\x1b") ? s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "") : s;
      const nl = visible.lastIndexOf("\n");
      this.col = nl >= 0 ? visibleWidth(visible.slice(nl + 1)) : this.col + visibleWidth(visible);
    }
  }
}

/** Text from the run as `out` may show it: escaped at a terminal, as it came in a pipe. */
function shown(out: Out, text: string): string {
  return out.tty ? terminalSafe(text) : text;
}

export interface TerminalViewOptions {
  text: Out;
  /** Where thinking goes, dimmed; undefined hides it. */
  thinking?: Out;
  /** Where tool calls and results go; undefined hides them. */
  tools?: Out;
  /** Show the first line of each tool result's output. */
  toolOutput?: boolean;
}

export class TerminalView {
  private pendingCalls: ToolCallInfo[] = [];
  private callsInStep = 0;
  /** A step with tools ended: the next step's text starts on a line of its own. */
  private newStep = false;
  /** Answer text is Markdown drawn for the terminal when it goes to one; raw otherwise. */
  private readonly markdown: StreamingMarkdown | undefined;

  constructor(private readonly o: TerminalViewOptions) {
    this.markdown = o.text.tty ? new StreamingMarkdown(o.text.style, () => o.text.columns) : undefined;
  }

  render(event: StreamEvent): void {
    const e = event.event;
    if (e.case !== "chunk") this.flushText();
    switch (e.case) {
      case "chunk":
        if (this.newStep && e.value.content && this.o.text.midLine) this.o.text.put("\n", "text");
        if (e.value.content) this.newStep = false;
        if (!this.markdown) this.emit(this.o.text, "text", e.value.content);
        else if (e.value.content) {
          this.endOtherLines(this.o.text, "text");
          this.o.text.put(this.markdown.push(terminalSafe(e.value.content), this.o.text.column), "text");
        }
        break;
      case "thinking":
        if (this.o.thinking) this.emit(this.o.thinking, "thinking", this.o.thinking.style.dim(shown(this.o.thinking, e.value.content)));
        break;
      case "toolStart":
        // The early names-only frame is replaced by the full one (docs/protocol.md#stream-runs).
        this.pendingCalls = e.value.calls;
        break;
      case "askUser":
        this.flushCalls();
        break;
      case "toolResult": {
        this.flushCalls();
        const out = this.o.tools;
        if (!out) break;
        const line = shown(out, describeResult(e.value, { withId: this.callsInStep > 1, withOutput: Boolean(this.o.toolOutput) }));
        const styled = e.value.isError ? out.style.red(line) : out.style.dim(line);
        this.line(out, "tool", `  ${styled}`);
        break;
      }
      case "toolsComplete":
        this.flushCalls();
        this.callsInStep = 0;
        this.newStep = true;
        break;
    }
  }

  /** Prints a whole line on `out`, first ending any unfinished line it would break into. */
  line(out: Out, kind: string, text: string): void {
    this.emit(out, kind, `${text}\n`);
  }

  /** Ends every unfinished line (after a run, before a prompt or a question). */
  finish(): void {
    this.flushText();
    for (const out of this.outs()) if (out.midLine) out.put("\n", out.lineKind);
  }

  /** Prints what the answer's Markdown holds back before anything else. */
  private flushText(): void {
    if (this.markdown) this.o.text.put(this.markdown.flush(this.o.text.column), "text");
  }

  private flushCalls(): void {
    if (this.pendingCalls.length === 0) return;
    const calls = this.pendingCalls;
    this.pendingCalls = [];
    this.callsInStep = calls.length;
    const out = this.o.tools;
    if (!out) return;
    for (const call of calls) this.line(out, "tool", out.style.cyan(`⚙ ${shown(out, describeCall(call))}`));
  }

  private emit(out: Out, kind: string, s: string): void {
    if (!s) return;
    this.endOtherLines(out, kind);
    out.put(s, kind);
  }

  /** Ends the unfinished lines of other kinds that `out` would break into. */
  private endOtherLines(out: Out, kind: string): void {
    for (const other of this.outs()) {
      const shares = other === out || (other.tty && out.tty);
      if (shares && other.midLine && other.lineKind !== kind) other.put("\n", other.lineKind);
    }
  }

  private outs(): Out[] {
    return [...new Set([this.o.text, this.o.thinking, this.o.tools].filter((o): o is Out => o !== undefined))];
  }
}
