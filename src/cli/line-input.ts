// Line-by-line input for chat and ask_user answers. On a terminal it is a
// readline prompt (editing, Ctrl-C, Ctrl-D); in a pipe it just yields lines,
// buffering the ones that arrive while an answer is still streaming.
import { createInterface, type Interface } from "node:readline";

export type ReadResult = { kind: "line"; text: string } | { kind: "eof" } | { kind: "interrupt" };

export interface LineInputOptions {
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where a terminal prompt is drawn. */
  output?: NodeJS.WritableStream;
  /** Defaults to whether `input` is a terminal. */
  terminal?: boolean;
  /** Tab completion on a terminal: the candidates that complete `line`. */
  complete?: (line: string) => string[];
}

/** Bracketed paste: the terminal marks pasted text, so its newlines do not send it line by line. */
const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

export class LineInput {
  readonly terminal: boolean;
  private readonly rl: Interface;
  private readonly output: NodeJS.WritableStream;
  private readonly lines: string[] = [];
  private ended = false;
  private waiter: ((r: ReadResult) => void) | undefined;
  private busyInterrupt: () => void = () => {};
  private readonly onSignal = () => this.interrupt();
  /** Lines of a paste in progress, and of a finished paste waiting for Enter. */
  private pasting = false;
  private pasted: string[] = [];
  private input: NodeJS.EventEmitter | undefined;
  private cleared: () => void = () => {};
  private readonly onKeypress = (_s: string, key: { name?: string; ctrl?: boolean } | undefined) => {
    if (key?.name === "paste-start") this.pasting = true;
    else if (key?.name === "paste-end") this.pasting = false;
    // readline has cleared the screen (and drawn the prompt, empty while an answer streams).
    else if (key?.ctrl && key.name === "l") this.cleared();
  };

  constructor(options: LineInputOptions = {}) {
    const input = options.input ?? process.stdin;
    this.terminal = options.terminal ?? Boolean(input.isTTY);
    this.output = options.output ?? process.stdout;
    const complete = options.complete;
    this.rl = createInterface({
      input,
      output: this.terminal ? this.output : undefined,
      terminal: this.terminal,
      ...(complete && this.terminal ? { completer: (line: string) => [complete(line), line] } : {}),
    });
    this.rl.on("line", (line) => this.onLine(line));
    if (this.terminal) {
      this.output.write(PASTE_ON);
      this.input = input as NodeJS.EventEmitter;
      this.input.on("keypress", this.onKeypress);
    }
    this.rl.on("close", () => {
      this.ended = true;
      this.deliver({ kind: "eof" });
    });
    // On a terminal readline turns Ctrl-C into this event; in a pipe it is a real signal.
    this.rl.on("SIGINT", this.onSignal);
    process.on("SIGINT", this.onSignal);
  }

  /** The next line (prompting on a terminal), end of input, or Ctrl-C. */
  read(prompt = ""): Promise<ReadResult> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve({ kind: "line", text: queued });
    if (this.ended) return Promise.resolve({ kind: "eof" });
    return new Promise((resolve) => {
      this.waiter = resolve;
      if (this.terminal) {
        this.rl.setPrompt(prompt);
        this.rl.prompt();
      }
    });
  }

  /** Called after Ctrl-L has cleared the terminal: the cursor is at its top left. */
  onClearScreen(handler: () => void): void {
    this.cleared = handler;
  }

  /** What Ctrl-C does while no read is waiting (e.g. stop the answer being streamed). */
  onBusyInterrupt(handler: () => void): void {
    this.busyInterrupt = handler;
  }

  /**
   * Drops lines typed while no read was waiting (type-ahead), so they are not
   * taken as the answer to a question asked after them. Returns how many.
   */
  discardTypeAhead(): number {
    const dropped = this.lines.length;
    this.lines.length = 0;
    return dropped;
  }

  close(): void {
    process.off("SIGINT", this.onSignal);
    if (this.terminal) this.output.write(PASTE_OFF);
    this.input?.off("keypress", this.onKeypress);
    this.rl.close();
  }

  private onLine(line: string): void {
    // Pasted lines are held and sent together with the line Enter finishes.
    if (this.pasting) {
      this.pasted.push(line);
      return;
    }
    if (this.pasted.length > 0) {
      const text = [...this.pasted, line].join("\n").replace(/\n$/, "");
      this.pasted = [];
      this.deliver({ kind: "line", text });
      return;
    }
    this.deliver({ kind: "line", text: line });
  }

  private interrupt(): void {
    if (!this.waiter) {
      this.busyInterrupt();
      return;
    }
    if (this.terminal && this.rl.line.length > 0) {
      // Ctrl-C on a half-typed line discards it, like a shell.
      this.rl.write(null, { ctrl: true, name: "e" });
      this.rl.write(null, { ctrl: true, name: "u" });
      return;
    }
    // Leave the abandoned prompt's line, as a shell does after ^C.
    if (this.terminal) this.output.write("\n");
    this.settle({ kind: "interrupt" });
  }

  private deliver(result: ReadResult): void {
    if (result.kind === "line" && !this.waiter) {
      this.lines.push(result.text);
      return;
    }
    this.settle(result);
  }

  private settle(result: ReadResult): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    // Until the next read there is no prompt: a Ctrl-L meanwhile must not draw the last one again.
    if (this.terminal) this.rl.setPrompt("");
    waiter?.(result);
  }
}
