// The agent config JSON of CreateAgent/UpdateAgent (docs/agents.md#agent-config-json), built
// from --json/--file and the convenience flags, or recovered from AgentInfo.
import type { AgentInfo } from "../protocol/gen/crabtalk_pb.ts";

export type AgentConfig = Record<string, unknown>;

export interface AgentConfigFlags {
  json?: string;
  file?: string;
  description?: string;
  model?: string;
  maxIterations?: number;
  thinking?: boolean;
  members?: string[];
  approve?: string[];
}

/** The JSON given with --json or --file (- = stdin), or undefined when neither was given. */
export async function configFromSource(flags: AgentConfigFlags): Promise<AgentConfig | undefined> {
  if (flags.json !== undefined && flags.file !== undefined) throw new Error("give --json or --file, not both");
  const text =
    flags.json ??
    (flags.file === undefined
      ? undefined
      : flags.file === "-"
        ? await Bun.stdin.text()
        : // node:fs loaded here, not at the top: send's fast path imports this module (issue 11).
          (await import("node:fs")).readFileSync(flags.file, "utf8"));
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`agent config is not valid JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("agent config must be a JSON object");
  return parsed as AgentConfig;
}

/** The flags layered over a base config. */
export function applyFlags(base: AgentConfig, flags: AgentConfigFlags): AgentConfig {
  const out = { ...base };
  if (flags.description !== undefined) out.description = flags.description;
  if (flags.model !== undefined) out.model = flags.model;
  if (flags.maxIterations !== undefined) out.max_iterations = flags.maxIterations;
  if (flags.thinking !== undefined) out.thinking = flags.thinking;
  if (flags.members !== undefined) out.members = flags.members;
  if (flags.approve !== undefined) out.approve = flags.approve;
  return out;
}

/** An agent's current config as CreateAgent/UpdateAgent JSON, so an update can change only some keys. */
export function configFromInfo(info: AgentInfo): AgentConfig {
  // The daemon sends the agent's config JSON; older daemons send "", and the fields are used instead.
  try {
    const parsed: unknown = JSON.parse(info.config);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as AgentConfig;
  } catch {
    // fall through
  }
  const config: AgentConfig = {
    description: info.description,
    max_iterations: info.maxIterations,
    thinking: info.thinking,
    members: info.members,
    skills: info.skills,
    mcps: info.mcps,
    compact_threshold: info.compactThreshold ?? null,
    compact_tool_max_len: info.compactToolMaxLen,
    approve: info.approve,
  };
  if (info.model !== undefined) config.model = info.model;
  return config;
}

/** The agent's fallback models, from its config JSON. */
export function fallbackOf(info: AgentInfo): string[] {
  const fallback = configFromInfo(info).fallback;
  return Array.isArray(fallback) ? fallback.filter((m): m is string => typeof m === "string") : [];
}
