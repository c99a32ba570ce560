// Whether this machine can sandbox tools (docs/security.md#tool-sandbox): bwrap on
// Linux, sandbox-exec on macOS, each tried once. A bwrap that is installed but
// cannot create its namespaces (some containers) counts as unavailable, with
// the reason. Asked by the daemon's sandbox policy and by `crabtalk doctor`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

type Env = Record<string, string | undefined>;

export type SandboxAvailability = { kind: "bwrap" | "sandbox-exec"; command: string } | { kind: "none"; reason: string };

export const BWRAP_INSTALL_HINT =
  "install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; " +
  'Arch: sudo pacman -S bubblewrap), or set [system.tools] sandbox = "auto" or "off" in config.toml';

const probed = new Map<string, SandboxAvailability>();
const probing = new Map<string, Promise<SandboxAvailability>>();

const probeKey = (env: Env, platform: NodeJS.Platform) => `${platform}\0${env.PATH ?? ""}`;

/** Finds and tries the sandbox once per PATH (the result is kept for reloads). */
export function probeSandbox(env: Env, platform: NodeJS.Platform = process.platform): SandboxAvailability {
  const key = probeKey(env, platform);
  let found = probed.get(key);
  if (!found) {
    const trial = sandboxTrial(env.PATH ?? "", platform);
    found = !("args" in trial) ? trial : judge(trial, spawnSync(trial.command, trial.args, { encoding: "utf8", timeout: 10_000 }));
    probed.set(key, found);
  }
  return found;
}

/**
 * probeSandbox without blocking the event loop (the trial is a process start,
 * several ms): the daemon starts it at start-up and answers meanwhile; a tool
 * run before it ends probes synchronously, and the result is shared.
 */
export function probeSandboxInBackground(env: Env, platform: NodeJS.Platform = process.platform): Promise<SandboxAvailability> {
  const key = probeKey(env, platform);
  const known = probed.get(key);
  if (known) return Promise.resolve(known);
  let running = probing.get(key);
  if (!running) {
    running = (async () => {
      const trial = sandboxTrial(env.PATH ?? "", platform);
      let found: SandboxAvailability;
      if (!("args" in trial)) found = trial;
      else {
        const proc = Bun.spawn([trial.command, ...trial.args], { stdin: "ignore", stdout: "ignore", stderr: "pipe", timeout: 10_000 });
        const [stderr, status] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
        found = judge(trial, { status, stderr });
      }
      const first = probed.get(key) ?? found;
      probed.set(key, first);
      probing.delete(key);
      return first;
    })();
    probing.set(key, running);
  }
  return running;
}

interface Trial {
  command: string;
  args: string[];
  sandbox: "bwrap" | "sandbox-exec";
}

/** The command that shows whether the sandbox works here, or why there is none. */
function sandboxTrial(path: string, platform: NodeJS.Platform): Trial | SandboxAvailability {
  if (platform === "linux") {
    const command = Bun.which("bwrap", { PATH: path });
    if (!command) return { kind: "none", reason: "bubblewrap (bwrap) is not on PATH" };
    // The same namespaces a run uses, network off included.
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "--die-with-parent", "--", "true"];
    return { command, args, sandbox: "bwrap" };
  }
  if (platform === "darwin") {
    const command = Bun.which("sandbox-exec", { PATH: path }) ?? (existsSync("/usr/bin/sandbox-exec") ? "/usr/bin/sandbox-exec" : undefined);
    if (!command) return { kind: "none", reason: "sandbox-exec is not available" };
    return { command, args: ["-p", "(version 1)(allow default)", "true"], sandbox: "sandbox-exec" };
  }
  return { kind: "none", reason: `no tool sandbox is implemented on ${platform}` };
}

function judge(trial: Trial, r: { status: number | null; stderr?: string | Buffer; error?: Error }): SandboxAvailability {
  if (r.status === 0) return { kind: trial.sandbox, command: trial.command };
  if (trial.sandbox === "sandbox-exec") return { kind: "none", reason: `${trial.command} does not work here` };
  const why = (String(r.stderr ?? "") || r.error?.message || `exit ${r.status}`).trim().split("\n")[0];
  return { kind: "none", reason: `${trial.command} does not work here (${why}); user namespaces may be disabled in this container` };
}

/** One line for `crabtalk doctor` and the start-up warning. */
export function describeAvailability(a: SandboxAvailability): string {
  return a.kind === "none" ? `no tool sandbox: ${a.reason}` : `tool sandbox: ${a.kind} (${a.command}) works`;
}
