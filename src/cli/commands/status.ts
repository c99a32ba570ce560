// status, ping, stats, reload: small requests to a running daemon.
import type { Command } from "commander";
import { connectClient, withClient, type ConnectOptions } from "../connect.ts";
import { findManager, homeOf, readPid, readPort } from "../daemon-control.ts";
import { VERSION } from "../../version.ts";
import { action } from "./run.ts";
import { warnUnknownKeysOf } from "../config-warnings.ts";
import { formatDuration, memoryText, statsText } from "../stats-view.ts";

/** LSB: `status` exits 3 when the program is not running. */
const NOT_RUNNING = 3;

export function registerStatusCommands(program: Command, conn: () => ConnectOptions): void {
  program
    .command("status")
    .description("is the daemon running: pid, version, uptime, home, socket, port, model, how it is run")
    .option("--json", "print one JSON object")
    .addHelpText("after", "\nExit status: 0 when the daemon answers, 3 when it does not (the LSB convention).")
    .action(
      action(async (opts: { json?: boolean }) => {
        const paths = homeOf();
        const manager = await findManager();
        const service =
          manager.kind !== "none" && (await manager.installed()) ? { manager: manager.kind, definition: manager.definition, noun: manager.noun } : undefined;
        const stats = await connectClient(conn())
          .then((client) => client.getStats().finally(() => client.close()))
          .catch(() => undefined);
        const view = {
          running: stats !== undefined,
          pid: stats ? (readPid(paths) ?? null) : null,
          version: stats ? stats.version || null : null,
          cli_version: VERSION,
          uptime_secs: stats ? Number(stats.uptimeSecs) : null,
          home: paths.home,
          socket: paths.socket,
          tcp_port: stats ? (readPort(paths) ?? null) : null,
          active_model: stats ? stats.activeModel || null : null,
          resident_bytes: stats ? Number(stats.residentBytes) : null,
          private_bytes: stats ? Number(stats.privateBytes) : null,
          run_by: service ? `${service.noun} ${service.definition}` : stats ? "background process" : null,
        };
        if (opts.json) {
          console.log(JSON.stringify(view));
          return view.running ? 0 : NOT_RUNNING;
        }
        if (!stats) {
          console.log("crabtalk daemon is not running (start it with: crabtalk start)");
          console.log(`home:          ${paths.home}`);
          if (service) console.log(`service:       ${service.noun} ${service.definition} (installed, not answering)`);
          return NOT_RUNNING;
        }
        console.log("crabtalk daemon is running");
        console.log(`pid:           ${view.pid ?? "unknown"}`);
        console.log(
          `version:       ${view.version ?? "unknown"}${view.version && view.version !== VERSION ? ` (this CLI is ${VERSION}: run crabtalk restart)` : ""}`,
        );
        console.log(`uptime:        ${formatDuration(view.uptime_secs ?? 0)}`);
        console.log(`memory:        ${memoryText(stats)}`);
        console.log(`home:          ${paths.home}`);
        console.log(`socket:        ${paths.socket}`);
        console.log(`tcp:           ${view.tcp_port ? `127.0.0.1:${view.tcp_port}` : "unknown"}`);
        console.log(`active model:  ${view.active_model ?? "(none: set [system.crab] model)"}`);
        console.log(`run by:        ${view.run_by}`);
        return 0;
      }),
    );

  program
    .command("ping")
    .description("check that the daemon answers; prints the round-trip time")
    .action(
      action(async () => {
        await withClient(conn(), async (client) => {
          const started = performance.now();
          await client.ping();
          console.log(`pong in ${(performance.now() - started).toFixed(1)} ms`);
        });
      }),
    );

  program
    .command("stats")
    .description("show uptime, open sessions, registered agents and the active model")
    .option("--json", "print the stats as one JSON object")
    .action(
      action(async (opts: { json?: boolean }) => {
        const stats = await withClient(conn(), (client) => client.getStats());
        console.log(statsText(stats, Boolean(opts.json)));
      }),
    );

  program
    .command("reload")
    .description("re-read config.toml and rebuild the runtime without restarting")
    .action(
      action(async () => {
        await withClient(conn(), async (client) => {
          await client.reload();
          await warnUnknownKeysOf(client);
        });
        console.log("reloaded");
      }),
    );
}
