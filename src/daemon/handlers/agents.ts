// Agent management (docs/protocol.md#agents, docs/agents.md): the local
// manifest is edited atomically, then the runtime is rebuilt.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../base/atomic-file.ts";
import { badRequest, internal, notFound } from "../../protocol/errors.ts";
import type { Handlers } from "../../protocol/server.ts";
import { DEFAULT_AGENT, type AgentDefinition } from "../../runtime/agent-settings.ts";
import { compactionThreshold } from "../../runtime/compaction.ts";
import { modelNameFor } from "../../runtime/runtime.ts";
import { agentConfigSchema, type AgentConfig } from "../../config/schema.ts";
import { writeManifestAgent, readManifest } from "../manifest.ts";
import { changeConfig } from "../config-change.ts";
import { setTable } from "../../config/table-edit.ts";
import type { DaemonState } from "../state.ts";
import { unservedModel } from "../../config/references.ts";
import type { Env } from "../../config/expand.ts";
import { resolveWorkingDir } from "../../config/working-dir.ts";

const AGENT_NAME = /^[A-Za-z0-9-]{1,64}$/;
/** Names of agents that came from prompt files may hold more (`_`, `.`) but never a path. */
const PROMPT_NAME = /^(?!\.)[^/\\\0]{1,255}$/;

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
  /** An agent's model and fallbacks must be ones a provider serves (the active model is used when it names none). */
  const checkModel = (table: Record<string, unknown>) => {
    const problem = unservedModel(
      table,
      state.host.runtime.models.models().map((m) => m.name),
    );
    if (problem) throw badRequest(`${problem}: see crabtalk models`);
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

    createAgent: async ({ name, config, prompt }) => {
      checkName(name);
      const table = parseAgentConfig(config, state.env);
      checkModel(table);
      if (inManifest(name)) throw badRequest(`agent '${name}' already exists in the local manifest`);
      writeManifestAgent(state.paths.localManifest, name, table);
      const promptFile = join(state.paths.localAgents, `${name}.md`);
      if (prompt !== undefined) await writeFileAtomic(promptFile, new TextEncoder().encode(prompt));
      else if (!existsSync(promptFile)) writeFileSync(promptFile, "");
      await reload();
      return registered(name);
    },

    updateAgent: async ({ name, config, prompt }) => {
      if (!inManifest(name)) throw notFound(`agent '${name}' not found in local manifest`);
      const table = parseAgentConfig(config, state.env);
      checkModel(table);
      writeManifestAgent(state.paths.localManifest, name, table);
      if (prompt !== undefined) await writeFileAtomic(join(state.paths.localAgents, `${name}.md`), new TextEncoder().encode(prompt));
      await reload();
      return registered(name);
    },

    // Removes the agent from every place that defines it: the manifest entry,
    // a deprecated [agents.<name>] of config.toml, and its prompt file.
    deleteAgent: async ({ name }) => {
      if (name === DEFAULT_AGENT) throw badRequest("'crab' is the default agent and cannot be deleted: configure it with [system.crab]");
      if (!PROMPT_NAME.test(name)) throw badRequest(`invalid agent name '${name}'`);
      const prompt = join(state.paths.localAgents, `${name}.md`);
      const sources = {
        manifest: inManifest(name),
        config: Object.hasOwn(state.config.config.agents, name),
        prompt: existsSync(prompt),
      };
      if (!sources.manifest && !sources.config && !sources.prompt) {
        if (state.host.runtime.agents.has(name)) {
          throw badRequest(`agent '${name}' is not defined in local/CrabTalk.toml, config.toml or local/agents/, so it cannot be deleted here`);
        }
        throw notFound(`agent '${name}' not found`);
      }
      if (sources.config) {
        await changeConfig(state, (text) => setTable(text, ["agents", name], undefined), `delete agent ${name}`);
      }
      if (sources.manifest) writeManifestAgent(state.paths.localManifest, name, undefined);
      if (sources.prompt) rmSync(prompt, { force: true });
      await reload();
      return { case: "pong", value: {} };
    },
  };
}

/**
 * The agent's configuration as CreateAgent/UpdateAgent JSON (docs/agents.md#agent-config-json), so a
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
    ...(a.cwd !== undefined ? { cwd: a.cwd } : {}),
  };
}

function checkName(name: string): void {
  if (!AGENT_NAME.test(name)) {
    throw badRequest(`invalid agent name '${name}': use 1-64 letters, digits or '-'`);
  }
  if (name === DEFAULT_AGENT) throw badRequest("'crab' is the default agent: configure it with [system.crab]");
}

/** The docs/agents.md#agent-config-json JSON as a manifest table (defaults applied, model omitted when unset). */
function parseAgentConfig(json: string, env: Env): Record<string, unknown> {
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
  if (parsed.data.cwd !== undefined) {
    try {
      resolveWorkingDir(parsed.data.cwd, env, "invalid agent config: cwd");
    } catch (err) {
      throw badRequest((err as Error).message);
    }
  }
  const { model, ...rest }: AgentConfig = parsed.data;
  return model ? { model, ...rest } : rest;
}
