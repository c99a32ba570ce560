// Runs a service manager's command (systemctl, launchctl, schtasks) and turns
// a failure into an error that shows the command and what it printed.
export class ServiceCommandError extends Error {}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runManager(argv: string[], timeoutMs = 30_000): Promise<CommandResult> {
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch (err) {
    throw new ServiceCommandError(`cannot run '${argv[0]}': ${(err as Error).message}`);
  }
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Like runManager, but a non-zero exit throws with the command line and its stderr. */
export async function mustRun(argv: string[]): Promise<CommandResult> {
  const result = await runManager(argv);
  if (result.code !== 0) {
    const said = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(0, 3).join(" / ");
    throw new ServiceCommandError(`'${argv.join(" ")}' failed (exit ${result.code})${said ? `: ${said}` : ""}`);
  }
  return result;
}
