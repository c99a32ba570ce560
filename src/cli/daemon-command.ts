// `crabtalk daemon`: the daemon in this process. main.ts runs its plain forms
// (`daemon`, `daemon -v|--verbose`) directly, without loading the full CLI
// (half of a cold start, issue 11); commands/daemon.ts registers it with commander.
import { action } from "./commands/run.ts";

/** The daemon's own flags when `argv` (after the executable) is a plain `daemon` command, else undefined. */
export function plainDaemonArgs(argv: string[]): { verbose: boolean } | undefined {
  if (argv[0] !== "daemon" || argv.length > 2) return undefined;
  if (argv.length === 1) return { verbose: false };
  return argv[1] === "-v" || argv[1] === "--verbose" ? { verbose: true } : undefined;
}

export const runDaemonCommand = action(async (opts: { verbose?: boolean }) => {
  // The CLI's one import of the daemon (docs/architecture.md, "The one exception").
  const { runDaemon, DaemonAlreadyRunningError } = await import("../daemon/daemon.ts");
  try {
    // Exit explicitly: a stray handle must not keep a stopped daemon alive.
    process.exit(await runDaemon({ logLevel: opts.verbose ? "debug" : "info" }));
  } catch (err) {
    if (err instanceof DaemonAlreadyRunningError) {
      // Exit now, as on success: nothing of this process may linger.
      process.stderr.write(`crabtalk: ${err.message}\n`);
      process.exit(1);
    }
    throw new Error(`daemon failed to start: ${(err as Error).message}`);
  }
});
