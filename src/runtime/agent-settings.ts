// An agent's configuration as the runtime sees it (docs/config.md#systemcrab, docs/agents.md).
// The daemon maps `[system.crab]` and `[agents.<name>]` onto this.

export interface AgentSettings {
  description: string;
  /** Own model; absent = the active model. */
  model?: string;
  maxIterations: number;
  thinking: boolean;
  members: string[];
  skills: string[];
  mcps: string[];
  /** Models tried in order when `model` fails transiently before answering. */
  fallback: string[];
  /**
   * Estimated tokens that trigger auto-compaction; 0 = disabled; undefined =
   * 80 % of the model's context window.
   */
  compactThreshold?: number;
  compactToolMaxLen: number;
  /** Where it is configured: `local` or a package id; absent for the default agent. */
  source?: string;
  /** Budgets of one run (docs/usage.md); undefined = none. */
  maxUsdPerRun?: number;
  maxTokensPerRun?: number;
  /** Wall-clock limit of one run in seconds; 0 = none. */
  runTimeoutSecs: number;
  /** Approve rules: calls that wait for the user's yes (docs/approvals.md). */
  approve: string[];
  /** Absolute working directory of runs whose client names none (docs/config.md); absent = the user's home. */
  cwd?: string;
}

export const DEFAULT_RUN_TIMEOUT_SECS = 30 * 60;

export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  description: "",
  maxIterations: 16,
  thinking: false,
  members: [],
  skills: [],
  mcps: [],
  fallback: [],
  compactToolMaxLen: 1024,
  runTimeoutSecs: DEFAULT_RUN_TIMEOUT_SECS,
  approve: [],
};

/** A registered agent: settings plus its composed system prompt and tool whitelist. */
export interface AgentDefinition extends AgentSettings {
  name: string;
  systemPrompt: string;
  /** Tools this agent may call; empty = every tool (unscoped agent, docs/agents.md#scope). */
  toolWhitelist: string[];
}

export { DEFAULT_AGENT } from "../base/default-agent.ts";
