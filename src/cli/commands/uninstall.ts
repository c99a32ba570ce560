// uninstall: remove the service definition and the binary; --purge the home too.
import type { Command } from "commander";
import { existsSync, realpathSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { homedir } from "node:os";
import { findManager, homeOf, isCompiled, stopDaemon } from "../daemon-control.ts";
import { removePathLines } from "../shell-profile.ts";
import { action } from "./run.ts";

const say = (line: string) => console.log(line);

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string>((resolve) => {
    rl.question(question, resolve);
    rl.once("close", () => resolve(""));
  });
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

export function registerUninstallCommand(program: Command): void {
  program
    .command("uninstall")
    .description("stop the daemon, remove its service definition and this binary (the home stays unless --purge)")
    .option("--purge", "also delete the home (config, sessions, memory, logs), after a confirmation")
    .option("-y, --yes", "do not ask for confirmation (for scripts)")
    .addHelpText(
      "after",
      `
Without --purge, the home (~/.crabtalk or $CRABTALK_HOME) with your config,
sessions and memory stays, so a later install picks up where you left off.

Examples:
  crabtalk uninstall
  crabtalk uninstall --purge --yes`,
    )
    .action(
      action(async (opts: { purge?: boolean; yes?: boolean }) => {
        const paths = homeOf();
        const home = paths.home;
        if (opts.purge) {
          if (home === "/" || home === homedir() || home === process.env.HOME) {
            throw new Error(`refusing to delete ${home}: CRABTALK_HOME points at a directory that is not crabtalk's own`);
          }
          if (!opts.yes) {
            if (!process.stdin.isTTY) throw new Error(`refusing to delete ${home} without confirmation: add --yes`);
            if (!(await confirm(`delete ${home} and everything in it (config, sessions, memory, logs)? [y/N] `))) {
              say("nothing was removed");
              return 1;
            }
          }
        }
        const manager = await findManager();
        if (manager.kind !== "none" && (await manager.installed())) {
          await manager.remove();
          say(`removed the ${manager.noun} ${manager.definition}`);
        }
        await stopDaemon(say);
        if (isCompiled()) {
          const binary = realpathSync(process.execPath);
          rmSync(binary, { force: true });
          say(`removed ${binary}`);
        } else {
          say("running from source: there is no installed binary to remove");
        }
        for (const file of removePathLines(process.env)) say(`removed the PATH line the installer added to ${file}`);
        if (opts.purge && existsSync(home)) {
          rmSync(home, { recursive: true, force: true });
          say(`deleted ${home}`);
        } else if (existsSync(home)) {
          say(`kept ${home} (crabtalk uninstall --purge deletes it)`);
        }
        return 0;
      }),
    );
}
