// `crabtalk sessions` and `crabtalk kill`: the sessions open in the daemon.
import type { Command } from "commander";
import { parseSessionId } from "../args.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { sessionsTable } from "../listings.ts";
import { toPlain } from "../plain-json.ts";
import { action } from "./run.ts";

export function registerSessionCommands(program: Command, conn: () => ConnectOptions): void {
  program
    .command("sessions")
    .description("list the sessions open in the daemon (conversations on disk: crabtalk conversations)")
    .option("--json", "print a JSON array of sessions")
    .addHelpText(
      "after",
      `
Columns: ID (use with send --session, kill), AGENT, CREATED_BY (the sender,
"user" for you), MESSAGES (in the working history), ALIVE (time spent
running), ACTIVE (a run holds it now), TITLE. Ids last until the daemon
restarts; conversation files last forever.`,
    )
    .action(
      action(async (opts: { json?: boolean }) => {
        const sessions = await withClient(conn(), (client) => client.sessions());
        console.log(opts.json ? JSON.stringify(toPlain(sessions)) : sessionsTable(sessions));
      }),
    );

  program
    .command("cancel")
    .description("stop the run in progress in an open session; the session stays open")
    .argument("<id>", "session id (see crabtalk sessions)", parseSessionId)
    .addHelpText(
      "after",
      `
The model request is aborted and the run's tool processes are killed; what the
answer had said so far is kept in the conversation, marked as interrupted.
Nothing happens (and the exit status is 0) when no run is in progress.`,
    )
    .action(
      action(async (id: bigint) => {
        await withClient(conn(), (client) => client.cancel(id));
        console.log(`cancelled any run in progress in session ${id}`);
      }),
    );

  program
    .command("kill")
    .description("stop an open session's run in progress and close the session; its conversation file stays and can be resumed")
    .argument("<id>", "session id (see crabtalk sessions)", parseSessionId)
    .action(
      action(async (id: bigint) => {
        await withClient(conn(), (client) => client.kill(id));
        console.log(`killed session ${id}`);
      }),
    );
}
