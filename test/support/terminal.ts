// Runs the crabtalk CLI on a pseudo-terminal (Bun.spawn's `terminal`), so
// stdin and stdout are TTYs as they are for a person, and types into it.
import { MAIN } from "./daemon.ts";

export interface TerminalRun {
  /** Everything the program wrote to the terminal so far (ANSI sequences included). */
  output(): string;
  /** Waits until the output after `from` contains `text`; fails (never hangs) after `ms`. */
  waitFor(text: string, from?: number, ms?: number): Promise<number>;
  type(keys: string): void;
  exited: Promise<number>;
  kill(): void;
}

export function runCliAtTerminal(args: string[], home: string): TerminalRun {
  let out = "";
  const decoder = new TextDecoder();
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    env: { ...process.env, CRABTALK_HOME: home, NO_COLOR: "1", CRABTALK_SERVICE_MANAGER: "none" },
    terminal: {
      cols: 200,
      rows: 50,
      data(_terminal, data) {
        out += decoder.decode(data, { stream: true });
      },
    },
  });
  return {
    output: () => out,
    async waitFor(text, from = 0, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const at = out.indexOf(text, from);
        if (at >= 0) return at + text.length;
        if (Date.now() > deadline || proc.exitCode !== null) {
          throw new Error(`the terminal never showed ${JSON.stringify(text)}; it showed:\n${out}`);
        }
        await Bun.sleep(20);
      }
    },
    type(keys) {
      proc.terminal!.write(keys);
    },
    exited: proc.exited,
    kill: () => proc.kill(),
  };
}
