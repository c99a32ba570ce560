// Runs the crabtalk CLI as a subprocess, as a user would.
import { MAIN } from "./daemon.ts";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion with exactly `env`, collecting its output. */
export async function runCommand(
  command: string[],
  opts: { env: Record<string, string | undefined>; stdin?: string; cwd?: string },
): Promise<CliResult> {
  const proc = Bun.spawn(command, {
    env: opts.env,
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

export function runCli(
  args: string[],
  opts: { home: string; stdin?: string; env?: Record<string, string>; command?: string[] },
): Promise<CliResult> {
  return runCommand([...(opts.command ?? [process.execPath, MAIN]), ...args], {
    // No test installs a real user service: tests that exercise one set a fake manager.
    env: { ...process.env, CRABTALK_HOME: opts.home, NO_COLOR: "1", CRABTALK_SERVICE_MANAGER: "none", ...opts.env },
    stdin: opts.stdin,
  });
}
