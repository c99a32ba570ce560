// Which sandbox the tools of each agent run in (docs/security.md#tool-sandbox):
// `[system.tools]` with per-agent overrides, against what this
// machine offers (src/base/sandbox-probe.ts).
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SandboxDecision } from "../runtime/tool-policy.ts";
import type { Env } from "../config/expand.ts";
import type { AgentConfig, ToolsConfig } from "../config/schema.ts";
import { defaultHome } from "../base/home-paths.ts";
import { BWRAP_INSTALL_HINT, type SandboxAvailability } from "../base/sandbox-probe.ts";

export { BWRAP_INSTALL_HINT, describeAvailability, probeSandbox, probeSandboxInBackground, type SandboxAvailability } from "../base/sandbox-probe.ts";

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
