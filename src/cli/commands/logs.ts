// logs: the end of <home>/logs/daemon.log, optionally followed.
import type { Command } from "commander";
import { homeOf } from "../daemon-control.ts";
import { follow, lastLines, sizeOf } from "../log-tail.ts";
import { action } from "./run.ts";

export function registerLogsCommand(program: Command): void {
  program
    .command("logs")
    .description("print the last lines of the daemon's log (<home>/logs/daemon.log)")
    .option("-n, --lines <n>", "how many lines", "50")
    .option("-f, --follow", "keep printing new lines, across log rotations, until Ctrl-C")
    .addHelpText(
      "after",
      `
The log rotates at 5 MiB (daemon.log.1 … daemon.log.3 keep the older lines).
A daemon run by systemd also writes to the journal: journalctl --user -u ai.crabtalk.crabtalk

Examples:
  crabtalk logs -n 200
  crabtalk logs -f | grep ERROR`,
    )
    .action(
      action(async (opts: { lines: string; follow?: boolean }) => {
        const n = Number(opts.lines);
        if (!Number.isInteger(n) || n < 0) throw new Error(`-n wants a whole number of lines, not '${opts.lines}'`);
        const log = homeOf().daemonLog;
        // Read up to here, follow from here: a line written in between is printed once.
        const end = sizeOf(log);
        const lines = lastLines(log, n, end);
        if (lines.length > 0) await Bun.write(Bun.stdout, lines.join("\n") + "\n");
        if (!opts.follow) {
          if (lines.length === 0 && n > 0) process.stderr.write(`crabtalk: no log yet at ${log}\n`);
          return;
        }
        const stop = new AbortController();
        process.once("SIGINT", () => stop.abort());
        process.once("SIGTERM", () => stop.abort());
        const out = Bun.stdout.writer();
        await follow(
          log,
          (text) => {
            out.write(text);
            void out.flush();
          },
          stop.signal,
          end,
        );
        await out.flush();
      }),
    );
}
