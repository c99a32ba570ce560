// The `crabtalk` command line: daemon control plus protocol clients.
import { Command } from "commander";
import { versionLine } from "../version.ts";
import type { ConnectOptions } from "./connect.ts";
import { registerDaemonCommands } from "./commands/daemon.ts";
import { registerStatusCommands } from "./commands/status.ts";
import { registerConfigCommands } from "./commands/config.ts";
import { registerSendCommand } from "./commands/send.ts";
import { registerChatCommand } from "./commands/chat.ts";
import { registerSessionCommands } from "./commands/sessions.ts";
import { registerConversationCommands } from "./commands/conversations.ts";
import { registerAgentCommands } from "./commands/agents.ts";
import { registerEventsCommand } from "./commands/events.ts";
import { registerProviderCommands } from "./commands/providers.ts";
import { registerSetupCommand } from "./commands/setup.ts";
import { registerCronCommands } from "./commands/cron.ts";
import { registerMemoryCommands } from "./commands/memory.ts";
import { registerLogsCommand } from "./commands/logs.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { registerUninstallCommand } from "./commands/uninstall.ts";
import { registerUpgradeCommand } from "./commands/upgrade.ts";
import { registerCompletionsCommand } from "./commands/completions.ts";
import { registerPackageCommands } from "./commands/packages.ts";
import { registerServiceCommands } from "./commands/services.ts";
import { registerUsageCommand } from "./commands/usage.ts";
import { registerTokenCommands } from "./commands/tokens.ts";
import { registerRemoteCommands } from "./commands/remote.ts";
import { registerAcpCommand } from "./acp/command.ts";

/**
 * `argv` (after the executable) decides one thing: `upgrade --version X` is
 * upgrade's own option, which the program-wide `--version` would otherwise
 * take wherever it stands.
 */
export function buildProgram(argv: readonly string[] = []): Command {
  const program = new Command("crabtalk").description("crabtalk: a local agent daemon and its command-line client");
  if (argv.find((word) => !word.startsWith("-")) !== "upgrade") {
    program.version(versionLine(), "-V, --version", "print the version, commit and platform");
  }
  program
    .option("--tcp", "connect over TCP (port from <home>/run/crabtalk.port) instead of the Unix socket")
    .showHelpAfterError("(run crabtalk --help for usage)")
    .addHelpText(
      "after",
      `
Environment:
  CRABTALK_HOME              daemon home (config.toml, sessions, logs); default ~/.crabtalk
  CRABTALK_SERVICE_MANAGER   systemd | launchd | schtasks | none: how start runs the daemon (and services)
  CRABTALK_HUB_URL           git URL or path of the package hub (default: [hub] url in config.toml)

Examples:
  crabtalk start              install and start the daemon as a user service
  crabtalk setup              choose a provider, its key and a model
  crabtalk status             is it running? (exit 3 when not)
  crabtalk doctor             check the installation and say how to fix problems
  crabtalk daemon             run the daemon in this terminal
  crabtalk ping               check it answers
  crabtalk send "hello"       one message, answer on stdout
  crabtalk chat               talk interactively
  crabtalk acp                serve an editor (Zed) over the Agent Client Protocol
  crabtalk events --json      watch every agent event live
  crabtalk models use gpt-4o  switch the active model
  crabtalk search browser     find packages on the hub; crabtalk pull <scope/name> installs one
  crabtalk config get system.crab.model`,
    );
  const conn = (): ConnectOptions => ({ tcp: Boolean(program.opts().tcp) });
  registerDaemonCommands(program);
  registerStatusCommands(program, conn);
  registerConfigCommands(program, conn);
  registerSendCommand(program, conn);
  registerChatCommand(program, conn);
  registerSessionCommands(program, conn);
  registerConversationCommands(program, conn);
  registerAgentCommands(program, conn);
  registerEventsCommand(program, conn);
  registerProviderCommands(program, conn);
  registerSetupCommand(program, conn);
  registerCronCommands(program, conn);
  registerPackageCommands(program, conn);
  registerServiceCommands(program, conn);
  registerUsageCommand(program, conn);
  registerMemoryCommands(program, conn);
  registerTokenCommands(program, conn);
  registerRemoteCommands(program, conn);
  registerAcpCommand(program, conn);
  registerLogsCommand(program);
  registerDoctorCommand(program);
  registerUpgradeCommand(program);
  registerUninstallCommand(program);
  registerCompletionsCommand(program);
  return program;
}
