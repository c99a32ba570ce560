// The bash tool (docs/tools.md#bash): `bash -c` in the session's working
// directory, in its own process group so a timeout or a Kill takes every
// child with it; output capped and marked when cut. The daemon's policy gives
// it its environment and sandbox; its processes are recorded for scoping.
import { spawn } from "node:child_process";
import { z } from "zod";
import type { ToolOutcome } from "../../agent/events.ts";
import type { SandboxDecision } from "../tool-policy.ts";
import { TOOL_TOKEN_VAR, type ToolProcesses } from "../tool-processes.ts";
import { defineTool } from "./define.ts";
import { sandboxedArgv } from "./sandbox.ts";

export const BASH_DEFAULT_TIMEOUT_SECS = 30;
export const BASH_MAX_TIMEOUT_SECS = 600;
/** Bytes kept of stdout and of stderr each. */
export const BASH_OUTPUT_CAP = 64 * 1024;

const input = z.object({
  command: z.string().describe("shell command line, run with bash -c"),
  env: z.record(z.string(), z.string()).default({}).describe("extra environment variables"),
  timeout: z
    .number()
    .int()
    .positive()
    .max(BASH_MAX_TIMEOUT_SECS)
    .optional()
    .describe(`seconds before the command is killed (default ${BASH_DEFAULT_TIMEOUT_SECS}, at most ${BASH_MAX_TIMEOUT_SECS})`),
});

export const bashTool = defineTool({
  name: "bash",
  description:
    "Run a shell command with bash -c in the session's working directory. Returns JSON {stdout, stderr, exit_code}; " +
    "check exit_code. Output beyond 64 KiB per stream is cut and marked. Prefer short, non-interactive commands. " +
    "It may run sandboxed: only the working directory is writable, /tmp is private to each call, and secrets read as <redacted>.",
  input,
  async run(args, ctx) {
    if (ctx.sender?.includes(":")) {
      return { output: "bash is only available in the command line interface", isError: true };
    }
    return runBash(args.command, {
      cwd: ctx.cwd,
      baseEnv: ctx.policy?.env,
      env: args.env,
      sandbox: ctx.policy?.sandboxFor(ctx.agentDef.name),
      umask: ctx.policy?.umask,
      processes: ctx.processes,
      agent: ctx.agentDef.name,
      run: ctx.run,
      timeoutSecs: args.timeout ?? BASH_DEFAULT_TIMEOUT_SECS,
      signal: ctx.signal,
    });
  },
});

export interface BashOptions {
  cwd: string;
  /** The tools' environment (default: the daemon's). */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** The model's extra variables. */
  env: Record<string, string>;
  sandbox?: SandboxDecision;
  /** The umask the command starts with (default: the daemon's). */
  umask?: number;
  /** Records the process for `agent`, so its connections to the daemon stay in that agent's scope. */
  processes?: ToolProcesses;
  agent?: string;
  /** The run that calls the tool (Session.runId): its processes may not send into that run's session. */
  run?: string;
  timeoutSecs: number;
  signal: AbortSignal;
}

/** How long output may still arrive after the command exited (a background process holding the pipes gets no more). */
export const BASH_DRAIN_MS = 200;
/** How long a killed command may take to go before the call ends without it. */
export const BASH_KILL_GRACE_MS = 2000;

export function runBash(command: string, options: BashOptions): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    const result = (stdout: string, stderr: string, exitCode: number, isError: boolean): ToolOutcome => ({
      output: JSON.stringify({ stdout, stderr, exit_code: exitCode }),
      isError,
    });
    // A Kill that came before the call started: nothing runs.
    if (options.signal.aborted) {
      resolve(result("", `bash cancelled: ${errorReason(options.signal)}`, -1, true));
      return;
    }
    const planned = sandboxedArgv(options.sandbox ?? { kind: "none" }, options.cwd, ["bash", "-c", command]);
    if ("error" in planned) {
      resolve(result("", planned.error, -1, true));
      return;
    }
    // The daemon's own umask (077) keeps its files private; files a command makes are the user's.
    const argv =
      options.umask === undefined ? planned.argv : ["/bin/sh", "-c", `umask ${options.umask.toString(8).padStart(3, "0")} && exec "$@"`, "sh", ...planned.argv];
    const [program, ...args] = argv;
    const owner = options.agent !== undefined ? { agent: options.agent, run: options.run } : undefined;
    const token = options.processes && owner ? options.processes.token(owner) : undefined;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, args, {
        cwd: options.cwd,
        // The model's variables first: it cannot overwrite the token.
        env: { ...(options.baseEnv ?? process.env), ...options.env, ...(token ? { [TOOL_TOKEN_VAR]: token } : {}) },
        detached: true, // own process group: kill(-pid) reaches every child
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (err) {
      resolve(result("", `bash failed: ${(err as Error).message}`, -1, true));
      return;
    }
    if (child.pid !== undefined && owner) options.processes?.register(child.pid, owner, token);
    const out = new CappedBuffer(BASH_OUTPUT_CAP);
    const errOut = new CappedBuffer(BASH_OUTPUT_CAP);
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => errOut.push(b));
    let ending: "timeout" | "cancelled" | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let stopTimer: ReturnType<typeof setTimeout> | undefined;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    // Ends the call once, whatever ends it first: the pipes closing, the
    // drain after the exit, the grace after a kill, or a failure to start
    // (docs/tools.md#bash).
    let settled = false;
    const settle = (failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(stopTimer);
      options.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      // Off the answer's path: it reads /proc.
      if (child.pid !== undefined) setTimeout(() => options.processes?.release(child.pid!), 0);
      if (failure !== undefined) resolve(result("", `bash failed: ${failure}`, -1, true));
      else if (ending === "timeout") resolve(result("", `bash timed out after ${options.timeoutSecs} seconds`, -1, true));
      else if (ending === "cancelled") resolve(result(out.text(), `bash cancelled: ${errorReason(options.signal)}`, -1, true));
      else resolve(result(out.text(), errOut.text(), exit?.signal ? -1 : (exit?.code ?? -1), false));
    };
    const later = (ms: number) => {
      clearTimeout(stopTimer);
      stopTimer = setTimeout(() => settle(), ms);
    };
    const stop = (why: "timeout" | "cancelled") => {
      ending ??= why;
      killGroup();
      // A process that left the group (setsid) may hold the pipes open for ever.
      if (!exit) later(BASH_KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop("timeout"), options.timeoutSecs * 1000);
    const onAbort = () => stop("cancelled");
    options.signal.addEventListener("abort", onAbort, { once: true });
    child.once("error", (err) => settle(err.message));
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      // The command is done; a background process it left may keep the pipes open.
      later(BASH_DRAIN_MS);
    });
    child.once("close", (code, signal) => {
      exit ??= { code, signal };
      settle();
    });
  });
}

function errorReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : "session ended";
}

/** Keeps the first `cap` bytes and counts the rest. */
class CappedBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly cap: number) {}

  push(b: Buffer): void {
    const room = this.cap - this.kept;
    if (room > 0) {
      const part = b.length <= room ? b : b.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, b.length - Math.max(room, 0));
  }

  text(): string {
    // Decoding replaces invalid UTF-8 (including a sequence cut at the cap).
    const body = Buffer.concat(this.chunks).toString("utf8");
    return this.dropped > 0 ? `${body}\n…[truncated ${this.dropped} bytes]` : body;
  }
}
