// daemon (foreground), start (background) and stop.
import type { Command } from "commander";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { homePaths, resolveHome } from "../../daemon/paths.ts";
import { connectClient } from "../connect.ts";
import { action } from "./run.ts";

const START_WAIT_MS = 5000;

export function registerDaemonCommands(program: Command): void {
  program
    .command("daemon")
    .description("run the daemon in the foreground (Ctrl-C stops it); home is $CRABTALK_HOME or ~/.crabtalk")
    .option("-v, --verbose", "log debug detail")
    .action(
      action(async (opts: { verbose?: boolean }) => {
        // Loaded here, not at startup: client commands never pay for the daemon's code.
        const { runDaemon } = await import("../../daemon/daemon.ts");
        const { DaemonAlreadyRunningError } = await import("../../daemon/endpoints.ts");
        try {
          // Exit explicitly: a stray handle must not keep a stopped daemon alive.
          process.exit(await runDaemon({ logLevel: opts.verbose ? "debug" : "info" }));
        } catch (err) {
          if (err instanceof DaemonAlreadyRunningError) throw err;
          throw new Error(`daemon failed to start: ${(err as Error).message}`);
        }
      }),
    );

  program
    .command("start")
    .description("start the daemon in the background and wait until it answers")
    .action(
      action(async () => {
        if (await answers()) {
          console.log("crabtalk daemon is already running");
          return;
        }
        const paths = homePaths(resolveHome(process.env));
        const self = selfCommand();
        mkdirSync(paths.logsDir, { recursive: true });
        const out = openSync(`${paths.logsDir}/daemon.out`, "a");
        const child = spawn(self[0], [...self.slice(1), "daemon"], {
          detached: true,
          stdio: ["ignore", out, out],
          cwd: paths.home,
        });
        child.unref();
        const deadline = Date.now() + START_WAIT_MS;
        while (Date.now() < deadline) {
          if (await answers()) {
            console.log(`crabtalk daemon started (pid ${child.pid}), home ${paths.home}`);
            return;
          }
          await Bun.sleep(50);
        }
        throw new Error(`daemon did not answer within ${START_WAIT_MS / 1000}s; see ${paths.daemonLog}`);
      }),
    );

  program
    .command("stop")
    .description("stop the background daemon (SIGTERM, graceful)")
    .action(
      action(async () => {
        const pidFile = homePaths(resolveHome(process.env)).pidFile;
        if (!existsSync(pidFile)) {
          console.log("crabtalk daemon is not running");
          return;
        }
        // A pid file left by a crash may name a pid since reused by some other
        // process: signal it only while a daemon answers on this home's socket.
        if (!(await answers())) {
          rmSync(pidFile, { force: true });
          console.log("crabtalk daemon is not running (removed a stale pid file)");
          return;
        }
        const pid = Number.parseInt(readFileSync(pidFile, "utf8"), 10);
        try {
          process.kill(pid, "SIGTERM");
        } catch {
          console.log("crabtalk daemon is not running (stale pid file)");
          return;
        }
        const deadline = Date.now() + 6000;
        while (Date.now() < deadline && existsSync(pidFile)) await Bun.sleep(50);
        console.log("crabtalk daemon stopped");
      }),
    );
}

async function answers(): Promise<boolean> {
  try {
    const client = await connectClient({});
    await client.ping();
    await client.close();
    return true;
  } catch {
    return false;
  }
}

/** argv that re-runs this program: the compiled binary alone, or bun + script. */
function selfCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs") || Bun.main.includes("~BUN");
  return compiled ? [process.execPath] : [process.execPath, Bun.main];
}
