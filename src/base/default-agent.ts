// The agent a run gets when nobody names one (`[system.crab]`, docs/agents.md):
// the runtime falls back to it and the CLI's setup configures it.

export const DEFAULT_AGENT = "crab";
