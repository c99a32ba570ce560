// The ToolPolicy of a runtime build (docs/security.md): the tools'
// environment and secrets (tool-secrets.ts) and each agent's sandbox
// (sandbox-policy.ts), with the one start-up warning when the sandbox is
// wanted but missing.
import type { ToolPolicy } from "../runtime/tool-policy.ts";
import type { LoadedConfig } from "../config/load.ts";
import type { Env } from "../config/expand.ts";
import type { AgentConfig } from "../config/schema.ts";
import type { Logger } from "./log.ts";
import { describeAvailability, probeSandbox, probeSandboxInBackground, sandboxPolicy, type SandboxAvailability } from "./sandbox-policy.ts";
import { toolSecrets } from "./tool-secrets.ts";
import { toolUmask } from "./home-modes.ts";

export interface ToolPolicyInput {
  loaded: LoadedConfig;
  /** The raw local manifest (its MCP servers' env values are secrets too). */
  manifest: unknown;
  agents: Record<string, AgentConfig>;
  home: string;
  env: Env;
  log: Logger;
}

let warned = false;

export function toolPolicy(input: ToolPolicyInput): ToolPolicy {
  const tools = input.loaded.config.system.tools;
  const { env, secrets } = toolSecrets([input.loaded.raw, input.manifest], input.env, tools.env_passthrough);
  const wanted = tools.sandbox !== "off" || Object.values(input.agents).some((a) => a.sandbox && a.sandbox !== "off");
  const availability = (): SandboxAvailability => (wanted ? probeSandbox(input.env) : { kind: "none", reason: 'sandbox = "off"' });
  // The trial runs in the background: the daemon answers while it does; the warning follows it.
  if (wanted && tools.sandbox !== "off" && !warned) {
    warned = true;
    void probeSandboxInBackground(input.env).then((found) => {
      if (found.kind !== "none") return;
      const effect = tools.sandbox === "required" ? 'sandbox = "required": tools refuse to run' : "tools run unsandboxed";
      input.log.warn(`${describeAvailability(found)}: ${effect} (see docs/security.md)`);
    });
  }
  const sandboxFor = sandboxPolicy({
    tools,
    agents: { ...input.agents, crab: input.loaded.config.system.crab },
    availability,
    home: input.home,
    env: input.env,
  });
  return { env, secrets, sandboxFor, umask: toolUmask() };
}
