// Builds a runtime from the config on disk (daemon.md §17.1): providers
// (expanded, detected when none is configured), agents, tools.
import { detectProviders } from "../model/detect.ts";
import { ModelRegistry } from "../model/registry.ts";
import type { ProviderSettings } from "../model/settings.ts";
import type { AgentSettings } from "../runtime/agent-settings.ts";
import { buildAgents } from "../runtime/agents.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { ToolRegistry } from "../runtime/tools.ts";
import { broadcastHook, type BroadcastEvent } from "../runtime/broadcast.ts";
import { builtinToolsHook } from "../runtime/builtin.ts";
import type { RuntimeHook } from "../runtime/hooks.ts";
import type { Host } from "../runtime/host.ts";
import { agentDirectoryHook, instructionsHook, workingDirectoryHook } from "../runtime/inject.ts";
import { environmentHook } from "../runtime/prompt.ts";
import { scopeHook } from "../runtime/scope.ts";
import { skillsHook } from "../runtime/skills/hook.ts";
import { memoryHook } from "../runtime/memory/hook.ts";
import { MemoryStore } from "../runtime/memory/store.ts";
import { EMPTY_MCP_POOL, type McpPool } from "../runtime/mcp/types.ts";
import { mcpHintLine, mcpHook } from "../runtime/mcp/hook.ts";
import { mcpServerSpecs } from "./mcp-servers.ts";
import pkg from "../../package.json" with { type: "json" };
import { skillDirs } from "./skill-dirs.ts";
import type { LoadedConfig } from "./config/load.ts";
import { expandConfig, type Env } from "./config/expand.ts";
import type { AgentConfig, ProviderConfig } from "./config/schema.ts";
import type { HomePaths } from "./home.ts";
import type { Logger } from "./log.ts";
import { manifestAgents } from "./manifest.ts";
import { unknownKeys } from "./config/schema-keys.ts";

/**
 * Why a run has no model, and the commands that fix it: named for the state
 * the user is in (no provider at all, or providers but no active model).
 */
export function noModelHint(configPath: string, models: readonly string[] = []): string {
  if (models.length > 0) {
    return `no active model: run \`crabtalk models use MODEL\` with one of ${models.join(", ")}, or set model in [system.crab] of ${configPath}`;
  }
  return (
    `no model configured in ${configPath}: run \`crabtalk setup\`, or ` +
    "`crabtalk providers add NAME --kind openai --api-key-env OPENAI_API_KEY --model gpt-4o` " +
    "(its first model becomes active; `crabtalk models use MODEL` picks another), " +
    "or write a [provider.<name>] table and [system.crab] model yourself; " +
    "or export OPENAI_API_KEY or ANTHROPIC_API_KEY, or run Ollama on 127.0.0.1:11434"
  );
}

export interface BuildOptions {
  loaded: LoadedConfig;
  host: Host;
  /** Where agent events go for subscribers. */
  publish(event: BroadcastEvent): void;
  paths: HomePaths;
  env: Env;
  log: Logger;
  /** Where detection looks for Ollama (tests point it at a fake). */
  ollamaUrl?: string;
  /** Keep these MCP connections instead of connecting anew (a reload for prompt or skill files). */
  mcp?: McpPool;
}

export async function buildRuntime(options: BuildOptions): Promise<Runtime & { mcp: McpPool }> {
  const { paths, log } = options;
  const config = expandConfig(options.loaded.config, options.env);
  for (const problem of unknownKeys(options.loaded.raw)) log.warn(`config.toml: ${problem}; ignored`);
  let providers = Object.entries(config.provider).map(([name, p]) => toSettings(name, p));
  let activeModel = config.system.crab.model || undefined;
  if (providers.length === 0) {
    const detected = await detectProviders(options.env, { ollamaUrl: options.ollamaUrl });
    if (detected) {
      providers = detected.providers;
      activeModel ??= detected.activeModel;
      log.info("no provider configured; detected one", { source: detected.source, model: activeModel ?? "" });
    }
  }
  const manifest = withConfigAgents(manifestAgents(paths.localManifest), config.agents, (m) => log.warn(m));
  // Order matters per hook point: prompt blocks (§7.3), injected context (§7.4).
  const mcpSpecs = mcpServerSpecs(paths, config.disabled.mcps, options.env);
  // The MCP SDK is loaded only when there is a server to connect.
  const mcp =
    options.mcp ??
    (mcpSpecs.length === 0
      ? EMPTY_MCP_POOL
      : await (await import("../runtime/mcp/pool.ts")).connectMcpServers(mcpSpecs, {
          baseEnv: options.env,
          extraEnv: config.env,
          warn: (m) => log.warn(m),
          clientVersion: pkg.version,
        }));
  const mcpLine = mcpHintLine(mcp);
  const skills = skillsHook({
    dirs: skillDirs(paths.home),
    disabled: config.disabled.skills,
    warn: (m) => log.warn(m),
    leadLines: mcpLine ? [mcpLine] : [],
  });
  const memory = await MemoryStore.open(paths.memoryDir, (m) => log.warn(m));
  // One list serves every hook point, so its order is both the prompt-block
  // order of §7.3 (environment, memory, resources, scope) and the injection
  // order of §7.4 (agent directory, recall, working directory, instructions).
  const hooks: RuntimeHook[] = [
    environmentHook,
    agentDirectoryHook,
    memoryHook(memory, config.system.memory.recall_limit),
    skills.hook,
    mcpHook(mcp),
    scopeHook,
    workingDirectoryHook,
    instructionsHook,
    builtinToolsHook(options.host),
    broadcastHook(options.publish),
  ];
  const tools = new ToolRegistry();
  for (const hook of hooks) hook.registerTools?.(tools);
  options.host.configureTasks(config.system.tasks.max_concurrent, config.system.tasks.task_timeout);
  const agents = buildAgents({
    hooks,
    crab: toAgentSettings(config.system.crab),
    identityFile: paths.crabMd,
    manifestAgents: Object.fromEntries(Object.entries(manifest).map(([n, a]) => [n, toAgentSettings(a)])),
    promptDirs: [paths.localAgents],
    warn: (m) => log.warn(m),
  });
  const models = new ModelRegistry(providers, { disabled: config.disabled.providers });
  return {
    agents,
    models,
    tools,
    hooks,
    mcp,
    activeModel,
    noModelHint: noModelHint(paths.config, models.models().map((m) => m.name)),
    home: paths.home,
    cwd: process.cwd(),
  };
}

/**
 * `[agents.*]` left in config.toml (the deprecated location, §3.8) are read
 * after the local manifest instead of being silently ignored: each one is
 * named in a warning, and loses to a manifest entry of the same name.
 */
function withConfigAgents(
  manifest: Record<string, AgentConfig>,
  fromConfig: Record<string, AgentConfig>,
  warn: (message: string) => void,
): Record<string, AgentConfig> {
  const merged = { ...manifest };
  for (const [name, agent] of Object.entries(fromConfig)) {
    if (Object.hasOwn(manifest, name)) {
      warn(`config.toml [agents.${name}] is ignored: local/CrabTalk.toml defines agent '${name}' too; remove one of them`);
    } else {
      warn(`config.toml [agents.${name}] is read from a deprecated location: move it to local/CrabTalk.toml`);
      merged[name] = agent;
    }
  }
  return merged;
}

function toSettings(name: string, p: ProviderConfig): ProviderSettings {
  return {
    name,
    kind: p.kind,
    apiKey: p.api_key,
    baseUrl: p.base_url,
    models: p.models,
    maxRetries: p.max_retries,
    timeoutSecs: p.timeout,
    apiVersion: p.api_version,
    region: p.region,
    accessKey: p.access_key,
    secretKey: p.secret_key,
  };
}

export function toAgentSettings(a: AgentConfig): AgentSettings {
  return {
    description: a.description,
    model: a.model || undefined,
    maxIterations: a.max_iterations,
    thinking: a.thinking,
    members: a.members,
    skills: a.skills,
    mcps: a.mcps,
    compactThreshold: a.compact_threshold > 0 ? a.compact_threshold : undefined,
    compactToolMaxLen: a.compact_tool_max_len,
  };
}
