// Runs the crabtalk CLI as a subprocess, as a user would.
import { MAIN } from "./daemon.ts";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Reads a stream to its end as text, telling `onText` what has come so far after each piece. */
async function readText(stream: ReadableStream<Uint8Array>, onText?: (soFar: string) => void): Promise<string> {
  if (onText === undefined) return new Response(stream).text();
  const decoder = new TextDecoder();
  let text = "";
  for await (const piece of stream) {
    text += decoder.decode(piece, { stream: true });
    onText(text);
  }
  return text + decoder.decode();
}

/**
 * Runs a command to completion with exactly `env`, collecting its output;
 * `onStdout` sees the output while it runs (to act once something is printed).
 */
export async function runCommand(
  command: string[],
  opts: { env: Record<string, string | undefined>; stdin?: string; cwd?: string; onStdout?: (soFar: string) => void },
): Promise<CliResult> {
  const proc = Bun.spawn(command, {
    env: opts.env,
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([readText(proc.stdout, opts.onStdout), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

export function runCli(
  args: string[],
  opts: { home: string; stdin?: string; env?: Record<string, string>; command?: string[]; onStdout?: (soFar: string) => void },
): Promise<CliResult> {
  return runCommand([...(opts.command ?? [process.execPath, MAIN]), ...args], {
    // No test installs a real user service: tests that exercise one set a fake manager.
    env: { ...process.env, CRABTALK_HOME: opts.home, NO_COLOR: "1", CRABTALK_SERVICE_MANAGER: "none", ...opts.env },
    stdin: opts.stdin,
    onStdout: opts.onStdout,
  });
}
