// daemon (foreground), start, stop and restart.
import type { Command } from "commander";
import { DEFAULT_AGENT } from "../../base/default-agent.ts";
import { withClient } from "../connect.ts";
import { checkConfigBeforeReplacing, startDaemon, stopDaemon } from "../daemon-control.ts";
import { ensureProvider } from "../setup/no-provider.ts";
import { action } from "./run.ts";
import { runDaemonCommand } from "../daemon-command.ts";

const say = (line: string) => console.log(line);

export function registerDaemonCommands(program: Command): void {
  program
    .command("daemon")
    .description("run the daemon in the foreground (Ctrl-C stops it); home is $CRABTALK_HOME or ~/.crabtalk")
    .option("-v, --verbose", "log debug detail")
    .action(runDaemonCommand);

  program
    .command("start")
    .description("install the daemon as a user service and start it (or run it in the background) and wait until it answers")
    .addHelpText(
      "after",
      `
Linux: a systemd user unit (~/.config/systemd/user/ai.crabtalk.crabtalk.service),
macOS: a launchd agent (~/Library/LaunchAgents/ai.crabtalk.crabtalk.plist),
Windows: a scheduled task at logon. The service restarts the daemon after a
crash and starts it at login. Where no service manager is usable (containers,
CI, WSL without systemd) the daemon runs as a background process instead.

Starting twice is harmless. config.toml is checked first: a broken file is
reported, naming the key, and nothing is started; unknown keys are reported
and ignored. A running daemon of another version (after an upgrade) is
replaced, but only when config.toml loads; otherwise it is left running.

Environment:
  CRABTALK_SERVICE_MANAGER   systemd | launchd | schtasks | none (default: detect)
  [system.service] memory_max / memory_high in config.toml limit the systemd unit.`,
    )
    .action(
      action(async () => {
        await startDaemon(say);
        // Started; without any provider, say how to add one (at a terminal: offer to do it now).
        // The start itself succeeded, so nothing here makes it fail.
        await withClient({}, (client) => ensureProvider(client, DEFAULT_AGENT, process.env, say)).catch(() => false);
      }),
    );

  program
    .command("stop")
    .description("stop the daemon; a user service is disabled too, so it does not start at login")
    .action(action(async () => stopDaemon(say)));

  program
    .command("restart")
    .description(
      "stop the daemon and start it again (after an upgrade, to run the new binary); a broken config.toml is refused first and the running daemon left alone",
    )
    .action(
      action(async () => {
        // A config the new daemon cannot load must not cost the running one (issue 19).
        await checkConfigBeforeReplacing("crabtalk restart");
        await stopDaemon(() => {});
        await startDaemon(say, process.env, { configWarned: true });
      }),
    );
}
