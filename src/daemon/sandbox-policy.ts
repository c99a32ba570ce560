// Which sandbox the tools of each agent run in (docs/security.md#tool-sandbox):
// `[system.tools]` with per-agent overrides, against what this
// machine offers. A bwrap that is installed but cannot create its namespaces
// (some containers) counts as unavailable, with the reason.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SandboxDecision } from "../runtime/tool-policy.ts";
import type { Env } from "../config/expand.ts";
import type { AgentConfig, ToolsConfig } from "../config/schema.ts";
import { defaultHome } from "../shared/home-paths.ts";

export type SandboxAvailability =
  | { kind: "bwrap" | "sandbox-exec"; command: string }
  | { kind: "none"; reason: string };

export const BWRAP_INSTALL_HINT =
  "install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; " +
  'Arch: sudo pacman -S bubblewrap), or set [system.tools] sandbox = "auto" or "off" in config.toml';

/** Credential stores under the user's home that no tool may see. */
const CREDENTIAL_STORES = [
  ".ssh",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".kube",
  ".docker",
  ".gnupg",
  ".password-store",
  ".local/share/keyrings",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
];

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

/** Paths a sandboxed tool never sees: the crabtalk home(s), credential stores, the user's runtime directory (agent sockets). */
export function hiddenPaths(home: string, env: Env): string[] {
  const user = env.HOME || homedir();
  const paths = [home, defaultHome(env), ...CREDENTIAL_STORES.map((p) => join(user, p))];
  if (env.XDG_RUNTIME_DIR) paths.push(env.XDG_RUNTIME_DIR);
  if (env.CLOUDSDK_CONFIG) paths.push(env.CLOUDSDK_CONFIG);
  return [...new Set(paths.map((p) => resolve(p)))];
}

export type AgentSandboxKeys = Pick<AgentConfig, "sandbox" | "writable" | "network">;

export interface SandboxPolicyInput {
  tools: ToolsConfig;
  /** Per-agent overrides by agent name. */
  agents: Record<string, AgentSandboxKeys>;
  /** What the machine offers, asked when the first decision is made (probeSandbox keeps the answer). */
  availability: () => SandboxAvailability;
  home: string;
  env: Env;
}

/** The decision for each agent's tools. */
export function sandboxPolicy(input: SandboxPolicyInput): (agent: string) => SandboxDecision {
  const hidden = hiddenPaths(input.home, input.env);
  const user = input.env.HOME || homedir();
  const expand = (p: string) => resolve(p === "~" ? user : p.startsWith("~/") ? join(user, p.slice(2)) : p);
  return (agent) => {
    const own = input.agents[agent] ?? {};
    const mode = own.sandbox ?? input.tools.sandbox;
    if (mode === "off") return { kind: "none" };
    const a = input.availability();
    const network = own.network ?? input.tools.network;
    if (a.kind === "none") {
      if (mode === "auto" && network) return { kind: "none" };
      if (!network) return { kind: "refuse", message: `tools refuse to run: network = false needs the sandbox, but ${a.reason}; ${BWRAP_INSTALL_HINT}` };
      return { kind: "refuse", message: `tools refuse to run: sandbox = "required" but ${a.reason}; ${BWRAP_INSTALL_HINT}` };
    }
    const writable = [...input.tools.writable, ...(own.writable ?? [])].map(expand);
    return { kind: a.kind, command: a.command, spec: { writable, hidden, network } };
  };
}
