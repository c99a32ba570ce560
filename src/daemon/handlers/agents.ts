// Agent management (protocol.md §5.5, daemon.md §5.3–§5.5): the local
// manifest is edited atomically, then the runtime is rebuilt.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { badRequest, internal, notFound } from "../../protocol/errors.ts";
import type { Handlers } from "../../protocol/server.ts";
import { DEFAULT_AGENT, type AgentDefinition } from "../../runtime/agent-settings.ts";
import { compactionThreshold } from "../../runtime/compaction.ts";
import { modelNameFor } from "../../runtime/runtime.ts";
import { agentConfigSchema, type AgentConfig } from "../config/schema.ts";
import { editManifestAgents, readManifest } from "../manifest.ts";
import type { DaemonState } from "../state.ts";

const AGENT_NAME = /^[A-Za-z0-9-]{1,64}$/;

export function agentHandlers(state: DaemonState): Handlers {
  const info = (a: AgentDefinition) => {
    const runtime = state.host.runtime;
    const model = modelNameFor(runtime, a);
    // The threshold in effect: the configured one, or 80 % of the model's window; absent = off.
    const threshold = compactionThreshold(a, runtime.models.contextLimit(model ?? ""));
    return {
      name: a.name,
      description: a.description,
      config: JSON.stringify(agentConfigJson(a)),
      model: a.name === DEFAULT_AGENT ? runtime.activeModel : a.model,
      maxIterations: a.maxIterations,
      thinking: a.thinking,
      members: a.members,
      skills: a.skills,
      mcps: a.mcps,
      compactThreshold: threshold > 0 ? threshold : undefined,
      compactToolMaxLen: a.compactToolMaxLen,
      source: a.source ?? "",
      approve: a.approve,
    };
  };
  const registered = (name: string) => {
    const agent = state.host.runtime.agents.get(name);
    if (!agent) throw internal(`agent '${name}' was written but did not register; see the daemon log`);
    return { case: "agentInfo" as const, value: info(agent) };
  };
  const inManifest = (name: string) => {
    const agents = readManifest(state.paths.localManifest).agents as Record<string, unknown> | undefined;
    return agents !== undefined && Object.hasOwn(agents, name);
  };
  const reload = async () => {
    try {
      await state.reload();
    } catch (err) {
      throw internal(`manifest written but reload failed: ${(err as Error).message}`);
    }
  };

  return {
    listAgents: () => ({
      case: "agentList",
      value: { agents: [...state.host.runtime.agents.values()].sort((a, b) => a.name.localeCompare(b.name)).map(info) },
    }),

    getAgent: ({ name }) => {
      const agent = state.host.runtime.agents.get(name);
      if (!agent) throw notFound(`agent '${name}' not registered`);
      return { case: "agentInfo", value: info(agent) };
    },

    createAgent: async ({ name, config }) => {
      checkName(name);
      const table = parseAgentConfig(config);
      if (inManifest(name)) throw badRequest(`agent '${name}' already exists in the local manifest`);
      editManifestAgents(state.paths.localManifest, (agents) => (agents[name] = table));
      const prompt = join(state.paths.localAgents, `${name}.md`);
      if (!existsSync(prompt)) writeFileSync(prompt, "");
      await reload();
      return registered(name);
    },

    updateAgent: async ({ name, config }) => {
      if (!inManifest(name)) throw notFound(`agent '${name}' not found in local manifest`);
      const table = parseAgentConfig(config);
      editManifestAgents(state.paths.localManifest, (agents) => (agents[name] = table));
      await reload();
      return registered(name);
    },

    deleteAgent: async ({ name }) => {
      if (!inManifest(name)) throw notFound(`agent '${name}' not found in local manifest`);
      editManifestAgents(state.paths.localManifest, (agents) => delete agents[name]);
      await reload();
      return { case: "pong", value: {} };
    },
  };
}

/**
 * The agent's configuration as CreateAgent/UpdateAgent JSON (§5.4), so a
 * client can change some keys and send the rest back as they were.
 * compact_threshold is left out when it follows the context window.
 */
function agentConfigJson(a: AgentDefinition): Record<string, unknown> {
  return {
    description: a.description,
    ...(a.model ? { model: a.model } : {}),
    max_iterations: a.maxIterations,
    thinking: a.thinking,
    members: a.members,
    skills: a.skills,
    mcps: a.mcps,
    fallback: a.fallback,
    ...(a.compactThreshold !== undefined ? { compact_threshold: a.compactThreshold } : {}),
    compact_tool_max_len: a.compactToolMaxLen,
    run_timeout: a.runTimeoutSecs,
    approve: a.approve,
    ...(a.maxUsdPerRun !== undefined ? { max_usd_per_run: a.maxUsdPerRun } : {}),
    ...(a.maxTokensPerRun !== undefined ? { max_tokens_per_run: a.maxTokensPerRun } : {}),
  };
}

function checkName(name: string): void {
  if (!AGENT_NAME.test(name)) {
    throw badRequest(`invalid agent name '${name}': use 1-64 letters, digits or '-'`);
  }
  if (name === DEFAULT_AGENT) throw badRequest("'crab' is the default agent: configure it with [system.crab]");
}

/** The §5.4 JSON as a manifest table (defaults applied, model omitted when unset). */
function parseAgentConfig(json: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = json.trim() === "" ? {} : JSON.parse(json);
  } catch (err) {
    throw badRequest(`invalid agent config JSON: ${(err as Error).message}`);
  }
  const parsed = agentConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`invalid agent config: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const { model, ...rest }: AgentConfig = parsed.data;
  return model ? { model, ...rest } : rest;
}
