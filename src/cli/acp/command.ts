// `crabtalk acp`: an Agent Client Protocol agent on stdin/stdout for Zed and
// other ACP editors (docs/editors.md).
import type { Command } from "commander";
import type { ConnectOptions } from "../connect.ts";
import { action } from "../commands/run.ts";
import { acpAgent } from "./app.ts";
import { DaemonReady } from "./daemon-ready.ts";
import { Sessions } from "./session.ts";
import { note } from "./log.ts";
import { keepStdoutForProtocol, stdioStream } from "./stdio.ts";

export function registerAcpCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("acp")
    .description("speak the Agent Client Protocol on stdin/stdout, for Zed and other ACP editors")
    .option("-a, --agent <name>", "agent new sessions talk to", "crab")
    .addHelpText(
      "after",
      `
The editor starts this command and talks JSON-RPC to it; stdout carries only
that, notes go to stderr. A daemon that does not answer is started first, as
crabtalk start would. See docs/editors.md for Zed's agent_servers setting.

Example (Zed settings.json):
  "agent_servers": { "crabtalk": { "command": "crabtalk", "args": ["acp"] } }`,
    )
    .action(action((opts: { agent: string }) => serveAcp(opts.agent, conn())));
}

/** How long runs in progress get to be cancelled once the editor has gone. */
const LEAVE_MS = 2_000;

async function serveAcp(agentName: string, conn: ConnectOptions): Promise<number> {
  keepStdoutForProtocol();
  const sessions = new Sessions();
  const connection = acpAgent({ agent: agentName, conn, daemon: new DaemonReady(), sessions }).connect(stdioStream());
  await connection.closed;
  note("the editor closed the connection");
  // Runs still going have nobody to answer to: stop them, then leave even if a daemon connection lingers.
  await Promise.race([sessions.cancelAll(), Bun.sleep(LEAVE_MS)]);
  process.exit(0);
}
