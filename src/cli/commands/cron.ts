// `crabtalk cron list|add|delete`: skills fired into a session on a schedule.
import type { Command } from "commander";
import { parseDirectory, parseSessionId } from "../args.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { toPlain } from "../plain-json.ts";
import { formatTable } from "../table.ts";
import { action } from "./run.ts";

export function registerCronCommands(program: Command, conn: () => ConnectOptions): void {
  const cron = program
    .command("cron")
    .description("fire a skill into a session on a schedule (kept in <home>/crons.toml)")
    .addHelpText(
      "after",
      `
Schedules are cron expressions in UTC: 5 fields (min hour dom month dow) or
6/7 with seconds first (and a year last). Each firing sends /<skill> to the
session as the sender "cron"; the answer goes to the session's history.
A firing runs in the entry's --cwd, else in the directory the session was
last given, else in the agent's cwd key, else in your home directory.

Examples:
  crabtalk cron add "0 */2 * * *" check-feeds --session 3
  crabtalk cron add "0 8 * * 1-5" standup --session 3 --quiet 22:00-07:00
  crabtalk cron add "0 9 * * *" remind --session 3 --once`,
    );

  cron
    .command("list", { isDefault: true })
    .description("every cron entry")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const list = await withClient(conn(), (c) => c.listCrons());
        if (opts.json) return void console.log(JSON.stringify(toPlain(list)));
        const rows = list.map((c) => [
          String(c.id),
          c.schedule,
          c.skill,
          String(c.session),
          c.quietStart && c.quietEnd ? `${c.quietStart}-${c.quietEnd}` : "",
          c.once ? "once" : "",
          c.cwd,
        ]);
        console.log(formatTable(["ID", "SCHEDULE", "SKILL", "SESSION", "QUIET", "", "CWD"], rows));
      }),
    );

  cron
    .command("add")
    .description("add an entry for an open session (ids from crabtalk sessions)")
    .argument("<schedule>", "cron expression, quoted")
    .argument("<skill>", "skill fired as /<skill>")
    .requiredOption("-s, --session <id>", "target session", parseSessionId)
    .option("--quiet <HH:MM-HH:MM>", "quiet hours in local time: no firing inside them")
    .option("--once", "fire once, then delete the entry")
    .option("--cwd <dir>", "working directory of each firing (default: the session's, kept across restarts)", parseDirectory)
    .action(
      action(async (schedule: string, skill: string, opts: { session: bigint; quiet?: string; once?: boolean; cwd?: string }) => {
        let quietStart: string | undefined;
        let quietEnd: string | undefined;
        if (opts.quiet) {
          const m = /^(\d\d:\d\d)-(\d\d:\d\d)$/.exec(opts.quiet);
          if (!m) throw new Error(`--quiet takes HH:MM-HH:MM, not '${opts.quiet}'`);
          [quietStart, quietEnd] = [m[1], m[2]];
        }
        const created = await withClient(conn(), (c) =>
          c.createCron({ schedule, skill, session: opts.session, quietStart, quietEnd, once: Boolean(opts.once), cwd: opts.cwd }),
        );
        console.log(`cron ${created.id} added: /${created.skill} on '${created.schedule}' into session ${created.session}`);
      }),
    );

  cron
    .command("delete")
    .description("delete an entry")
    .argument("<id>", "cron id (from crabtalk cron list)", parseSessionId)
    .action(
      action(async (id: bigint) => {
        await withClient(conn(), (c) => c.deleteCron(id));
        console.log(`cron ${id} deleted`);
      }),
    );
}
