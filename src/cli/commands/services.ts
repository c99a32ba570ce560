// `crabtalk service start|stop|logs <name>` (also `crabtalk <name> start|stop|logs`),
// `crabtalk ps` and `crabtalk mcp list`: components and MCP servers.
import type { Command } from "commander";
import { McpStatus, type McpInfo } from "../../protocol/gen/crabtalk_pb.ts";
import { portAnswers, readPortFiles } from "../../base/port-files.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { homeOf } from "../daemon-control.ts";
import { formatTable } from "../table.ts";
import { action } from "./run.ts";

export const SERVICE_VERBS = ["start", "stop", "logs"];

const STATUS: Record<number, string> = {
  [McpStatus.CONNECTED]: "connected",
  [McpStatus.DISCONNECTED]: "disconnected",
  [McpStatus.FAILED]: "failed",
};

/** The status word `mcp list` shows: disabled and still-connecting servers named as such. */
function mcpStatus(m: McpInfo): string {
  if (!m.enabled) return "disabled";
  if (m.status === McpStatus.DISCONNECTED && m.error === "connecting") return "connecting";
  return STATUS[m.status] ?? "unknown";
}

/** Why a server is not connected, as the daemon says (otherwise only in its log). */
function mcpReason(m: McpInfo): string | undefined {
  if (!m.enabled) return undefined;
  if (m.status === McpStatus.CONNECTED || m.error === "connecting" || !m.error) return undefined;
  return `${m.name}: ${m.error}`;
}

export function registerServiceCommands(program: Command, conn: () => ConnectOptions): void {
  const service = program
    .command("service")
    .description("run a command of an installed package as a service (also: crabtalk <name> start|stop|logs)")
    .addHelpText(
      "after",
      `
A service runs under the user's service manager (systemd, launchd, Task
Scheduler) as ai.crabtalk.<name>; where there is none (CRABTALK_SERVICE_MANAGER=none,
containers) the daemon runs it itself and restarts it when it exits.

Examples:
  crabtalk service start search
  crabtalk telegram logs -n 100   (for a command named like one of ours, use crabtalk service logs <name>)`,
    );
  service
    .command("start")
    .argument("<name>", "command name from an installed package")
    .option("--force", "restart when already running")
    .action(
      action(async (name: string, opts: { force?: boolean }) => {
        await withClient(conn(), (c) => c.startService(name, Boolean(opts.force)));
        console.log(`service ${name} started`);
      }),
    );
  service
    .command("stop")
    .argument("<name>", "service name")
    .action(
      action(async (name: string) => {
        await withClient(conn(), (c) => c.stopService(name));
        console.log(`service ${name} stopped`);
      }),
    );
  service
    .command("logs")
    .argument("<name>", "service name")
    .option("-n, --lines <n>", "how many lines", "50")
    .action(
      action(async (name: string, opts: { lines: string }) => {
        const n = Number(opts.lines);
        if (!Number.isInteger(n) || n < 0) throw new Error(`-n wants a whole number of lines, not '${opts.lines}'`);
        console.log(await withClient(conn(), (c) => c.serviceLogs(name, n)));
      }),
    );

  program
    .command("ps")
    .description("components announced in <home>/run/*.port, running or stale")
    .action(
      action(async () => {
        const files = readPortFiles(homeOf().runDir);
        if (files.length === 0) return void console.log("no components running");
        const rows = await Promise.all(files.map(async (f) => [f.name, String(f.port), (await portAnswers(f.port)) ? "running" : "stale"]));
        console.log(formatTable(["NAME", "PORT", "STATE"], rows));
      }),
    );

  program
    .command("mcp")
    .description("MCP servers")
    .command("list", { isDefault: true })
    .description("every MCP server: local, from packages, and components, with its status and why one is not connected")
    .addHelpText(
      "after",
      `
STATUS is connected, connecting (just started), failed, disconnected, or
disabled ([disabled] mcps in config.toml; crabtalk enable mcp NAME). Below the
table, each server that is not connected has a line saying why.`,
    )
    .action(
      action(async () => {
        const list = await withClient(conn(), (c) => c.listMcps());
        if (list.length === 0) return void console.log("no MCP servers");
        const rows = list.map((m) => [m.name, mcpStatus(m), String(m.toolCount), m.source, m.url || [m.command, ...m.args].join(" ")]);
        console.log(formatTable(["NAME", "STATUS", "TOOLS", "SOURCE", "ENDPOINT"], rows));
        const reasons = list.map(mcpReason).filter((r): r is string => r !== undefined);
        if (reasons.length > 0) console.log(`\nnot connected:\n${reasons.map((r) => `  ${r}`).join("\n")}`);
      }),
    );
}

/** `crabtalk <name> start|stop|logs …` → `crabtalk service start|stop|logs <name> …`, for names that are no command of ours. */
export function serviceShorthand(argv: string[], program: Command): string[] {
  const [word, verb] = argv.slice(2);
  if (!word || !verb || !SERVICE_VERBS.includes(verb)) return argv;
  if (program.commands.some((c) => c.name() === word || c.aliases().includes(word))) return argv;
  return [...argv.slice(0, 2), "service", verb, word, ...argv.slice(4)];
}
