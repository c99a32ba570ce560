// ping, stats, reload: small requests to a running daemon.
import type { Command } from "commander";
import { withClient, type ConnectOptions } from "../connect.ts";
import { action } from "./run.ts";

export function registerStatusCommands(program: Command, conn: () => ConnectOptions): void {
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
        const view = {
          uptime_secs: Number(stats.uptimeSecs),
          active_sessions: stats.activeSessions,
          registered_agents: stats.registeredAgents,
          active_model: stats.activeModel,
        };
        if (opts.json) {
          console.log(JSON.stringify(view));
          return;
        }
        console.log(`uptime:            ${formatDuration(view.uptime_secs)}`);
        console.log(`active sessions:   ${view.active_sessions}`);
        console.log(`registered agents: ${view.registered_agents}`);
        console.log(`active model:      ${view.active_model || "(none: set [system.crab] model)"}`);
      }),
    );

  program
    .command("reload")
    .description("re-read config.toml and rebuild the runtime without restarting")
    .action(
      action(async () => {
        await withClient(conn(), (client) => client.reload());
        console.log("reloaded");
      }),
    );
}

export function formatDuration(secs: number): string {
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = secs % 60;
  return h > 0 ? `${h}h ${m}m ${s}s` : m > 0 ? `${m}m ${s}s` : `${s}s`;
}
