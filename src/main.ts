#!/usr/bin/env bun
// Entry: a plain `crabtalk daemon` straight to the daemon, the fast path
// (src/cli/fast) for the hot client commands, else the full CLI, loaded only
// then. (No top-level await: bytecode builds need it.)
import { runFast } from "./cli/fast/dispatch.ts";
import { endForClosedPipe, endQuietlyWhenStdoutCloses, isClosedPipe } from "./cli/closed-pipe.ts";
import { plainDaemonArgs, runDaemonCommand } from "./cli/daemon-command.ts";

async function fullCli(): Promise<void> {
  endQuietlyWhenStdoutCloses();
  const { buildProgram } = await import("./cli/program.ts");
  const { serviceShorthand } = await import("./cli/commands/services.ts");
  const program = buildProgram(process.argv.slice(2));
  await program.parseAsync(serviceShorthand(process.argv, program));
}

const argv = process.argv.slice(2);
const daemonArgs = plainDaemonArgs(argv);
(daemonArgs ? runDaemonCommand(daemonArgs).then(() => true) : runFast(argv))
  .then((handled) => (handled ? undefined : fullCli()))
  .catch((err: unknown) => {
    if (isClosedPipe(err)) endForClosedPipe();
    process.stderr.write(`crabtalk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
