// A command on a pseudo-terminal, as a person at a terminal would run it:
// what it draws (escape codes stripped) and keys typed into it.
export interface PtyProcess {
  /** Everything drawn so far, without escape codes or carriage returns. */
  screen(): string;
  /** Everything written so far, escape codes and all. */
  raw(): string;
  /** Waits until the screen (after `from`) shows `what`; returns the index just past it. */
  waitFor(what: string | RegExp, from?: number): Promise<number>;
  type(keys: string): void;
  exited: Promise<number>;
  kill(): void;
}

const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z~]|\x1b[()][A-Z0-9]|\x1b[=>]|\r/g;

export function spawnPty(command: string[], env: Record<string, string | undefined>, size = { cols: 120, rows: 40 }): PtyProcess {
  let raw = "";
  const decoder = new TextDecoder();
  const proc = Bun.spawn(command, {
    env,
    terminal: {
      cols: size.cols,
      rows: size.rows,
      data: (_t: unknown, bytes: Uint8Array) => {
        raw += decoder.decode(bytes, { stream: true });
      },
    },
  } as Parameters<typeof Bun.spawn>[1]);
  const terminal = (proc as unknown as { terminal: { write(s: string): void } }).terminal;
  const screen = () => raw.replace(ESCAPES, "");
  return {
    screen,
    raw: () => raw,
    async waitFor(what, from = 0) {
      for (let i = 0; ; i++) {
        const text = screen().slice(from);
        const at = typeof what === "string" ? text.indexOf(what) : text.search(what);
        if (at >= 0) {
          const length = typeof what === "string" ? what.length : (text.slice(at).match(what)?.[0].length ?? 0);
          return from + at + length;
        }
        if (proc.exitCode !== null || i > 1000) {
          throw new Error(`never saw ${String(what)} on the terminal; it shows:\n${text.slice(-2000)}`);
        }
        await Bun.sleep(20);
      }
    },
    type: (keys) => terminal.write(keys),
    exited: proc.exited,
    kill: () => proc.kill(),
  };
}
