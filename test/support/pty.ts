// Runs the CLI in a pseudo-terminal (Bun's PTY), for interactive commands:
// the output as the user would see it, and keystrokes typed into it.
import { MAIN } from "./daemon.ts";

export interface PtySession {
  /** Everything written to the terminal so far, escape sequences removed. */
  screen(): string;
  /** Waits until the screen (after `from` characters) matches; fails with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp | string, from?: number, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  exited: Promise<number>;
  kill(): void;
}

export const KEYS = { enter: "\r", down: "\x1b[B", up: "\x1b[A", ctrlC: "\x03" } as const;

/** Escape sequences (colours, cursor moves, erases) stripped for matching. */
function plain(text: string): string {
  return text
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .replace(/\x1b[()][0-9A-B]/g, "")
    .replace(/\x1b[=>]/g, "");
}

export function runCliInPty(args: string[], opts: { home: string; env?: Record<string, string> }): PtySession {
  let output = "";
  const decoder = new TextDecoder();
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    env: { ...process.env, CRABTALK_HOME: opts.home, CRABTALK_SERVICE_MANAGER: "none", TERM: "xterm-256color", ...opts.env },
    terminal: {
      cols: 120,
      rows: 40,
      data: (_term, data) => {
        output += decoder.decode(data, { stream: true });
      },
    },
  });
  const screen = () => plain(output);
  return {
    screen,
    async waitFor(pattern, from = 0, timeoutMs = 15000) {
      const deadline = Date.now() + timeoutMs;
      const matches = () => {
        const s = screen().slice(from);
        return typeof pattern === "string" ? s.includes(pattern) : pattern.test(s);
      };
      while (!matches()) {
        if (Date.now() > deadline || proc.exitCode !== null) {
          if (matches()) return;
          throw new Error(`the terminal never showed ${String(pattern)}; it shows:\n${screen().slice(from)}`);
        }
        await Bun.sleep(20);
      }
    },
    type: (keys) => void proc.terminal?.write(keys),
    exited: proc.exited,
    kill: () => proc.kill(),
  };
}
