// An agent's configuration as the runtime sees it (daemon.md §3.3, §5).
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
  /** Estimated tokens that trigger auto-compaction; undefined = disabled. */
  compactThreshold?: number;
  compactToolMaxLen: number;
  /** Approve rules: calls that wait for the user's yes (docs/approvals.md). */
  approve: string[];
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  description: "",
  maxIterations: 16,
  thinking: false,
  members: [],
  skills: [],
  mcps: [],
  compactThreshold: 100_000,
  compactToolMaxLen: 1024,
  approve: [],
};

/** A registered agent: settings plus its composed system prompt and tool whitelist. */
export interface AgentDefinition extends AgentSettings {
  name: string;
  systemPrompt: string;
  /** Tools this agent may call; empty = every tool (unscoped agent, daemon.md §11). */
  toolWhitelist: string[];
}

export const DEFAULT_AGENT = "crab";
