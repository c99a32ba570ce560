// Builds a runtime from the config on disk (docs/config.md#reload): providers
// (expanded, detected when none is configured), agents, tools.
import { detectProviders } from "../model/detect.ts";
import { ModelRegistry } from "../model/registry.ts";
import type { ProviderSettings } from "../base/provider-settings.ts";
import type { AgentSettings } from "../runtime/agent-settings.ts";
import { buildAgents } from "../runtime/agents.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { ToolRegistry } from "../runtime/tools/registry.ts";
import { broadcastHook, type BroadcastEvent } from "../runtime/broadcast.ts";
import { builtinToolsHook } from "../runtime/tools/builtin.ts";
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
import { PriceBook } from "../runtime/usage/prices.ts";
import { mcpServerSpecs } from "./mcp-servers.ts";
import { join } from "node:path";
import { listSkillInfos } from "../runtime/skills/discover.ts";
import { joinPools } from "../runtime/mcp/join.ts";
import type { SenderPools } from "../runtime/mcp/sender-pools.ts";
import { listInstalled } from "./packages/installed.ts";
import { LOCAL_SOURCE, packageRepos, resolveAgents, resolveMcps } from "./packages/resolve.ts";
import { sandboxedArgv } from "../runtime/tools/sandbox.ts";
import pkg from "../../package.json" with { type: "json" };
import { skillDirs } from "./skill-dirs.ts";
import { userHome } from "../base/home-paths.ts";
import { resolveWorkingDir } from "../config/working-dir.ts";
import type { LoadedConfig } from "../config/load.ts";
import { expandConfig, type Env } from "../config/expand.ts";
import type { AgentConfig, ProviderConfig } from "../config/schema.ts";
import type { HomePaths } from "./home.ts";
import type { Logger } from "./log.ts";
import { SILENT_LOG, type RuntimeLog } from "../base/runtime-log.ts";
import { manifestAgents, manifestMcps, readManifest } from "./manifest.ts";
import { toolPolicy } from "./tool-policy.ts";
import { unknownKeys } from "../config/schema-keys.ts";
import { releaseMemory } from "./release-memory.ts";
import { noModelHint } from "../config/no-model-hint.ts";

export { noModelHint };

export interface BuildOptions {
  loaded: LoadedConfig;
  host: Host;
  /** Where agent events go for subscribers. */
  publish(event: BroadcastEvent): void;
  paths: HomePaths;
  env: Env;
  log: Logger;
  /** Components discovered through run/<name>.port, joined to the configured servers. */
  components?: McpPool;
  /** Where detection looks for Ollama (tests point it at a fake). */
  ollamaUrl?: string;
  /**
   * Return before the MCP servers are connected (daemon start: a hung server
   * must not delay the daemon); the runtime's `whenMcpReady` has them.
   */
  mcpInBackground?: boolean;
  /** Keep these MCP connections (the runtime's own servers) instead of connecting anew (a reload for prompt or skill files). */
  mcp?: McpPool;
  /** MCP servers editors attached to their sessions' runs: the daemon's, untouched by reloads. */
  senderMcps?: SenderPools;
}

/** A runtime with its MCP pools known by type (the daemon closes or keeps them on reload). */
export type BuiltRuntime = Runtime & { mcp: McpPool; mcpServers: McpPool };

export async function buildRuntime(options: BuildOptions): Promise<BuiltRuntime> {
  const { paths, log } = options;
  const config = expandConfig(options.loaded.config, options.env);
  for (const problem of unknownKeys(options.loaded.raw)) log.warn(`config.toml: ${problem}; ignored`);
  let providers = Object.entries(config.provider).map(([name, p]) => toSettings(name, p));
  let activeModel = config.system.crab.model || undefined;
  // Without a configured provider, detection (it may ask a local Ollama) runs while the rest is built.
  const detection = providers.length === 0 ? detectProviders(options.env, { ollamaUrl: options.ollamaUrl }) : undefined;
  detection?.catch(() => {}); // awaited below; a failure in between must not leave it unhandled
  const installed = listInstalled(paths.packages, paths.cacheRepos, log);
  const sourcedAgents = resolveAgents(withConfigAgents(manifestAgents(paths.localManifest), config.agents, log), installed, log);
  const agentConfigs = Object.fromEntries([...sourcedAgents].map(([n, a]) => [n, a.config]));
  const policy = toolPolicy({
    loaded: options.loaded,
    manifest: readManifest(paths.localManifest),
    agents: agentConfigs,
    home: paths.home,
    env: options.env,
    log,
  });
  // Where runs without a directory of their own work, and stdio MCP servers start:
  // the user's home, never the crabtalk home (the sandbox hides it) nor wherever the daemon was started.
  const workDir = userHome(options.env);
  // Servers marked `sandbox = true` run under the system-wide tool sandbox
  // (decided only for such a server: the decision may have to try the sandbox, a process start).
  const mcpSpecs = mcpServerSpecs(
    resolveMcps(manifestMcps(paths.localManifest), installed, log),
    config.disabled.mcps,
    options.env,
    workDir,
    (argv) => sandboxedArgv(policy.sandboxFor(""), workDir, argv),
    log,
  );
  // The MCP SDK is loaded only when there is a server to connect.
  const configured =
    options.mcp ??
    (mcpSpecs.length === 0
      ? EMPTY_MCP_POOL
      : (await import("../runtime/mcp/pool.ts")).startMcpServers(mcpSpecs, {
          baseEnv: policy.env,
          extraEnv: config.env,
          log,
          clientVersion: pkg.version,
        }));
  // Components come and go between reloads: their connections are the discovery's.
  const mcp = options.components ? joinPools(configured, options.components) : configured;
  const background = options.mcpInBackground === true && mcpSpecs.length > 0;
  if (!background) await configured.ready([]);
  const skills = skillsHook({
    dirs: skillDirs(paths, installed),
    disabled: config.disabled.skills,
    log,
    leadLines: () => {
      const line = mcpHintLine(mcp);
      return line ? [line] : [];
    },
  });
  const memory = await MemoryStore.open(paths.memoryDir, log);
  // One list serves every hook point, so its order is both the prompt-block
  // order of docs/agent-loop.md#system-prompt (environment, memory, resources, scope) and the injection
  // order of docs/agent-loop.md#injected-context (agent directory, recall, working directory, instructions).
  const hooks: RuntimeHook[] = [
    environmentHook,
    agentDirectoryHook,
    memoryHook(memory, config.system.memory.recall_limit),
    skills.hook,
    mcpHook(mcp, options.senderMcps),
    scopeHook,
    workingDirectoryHook,
    instructionsHook,
    builtinToolsHook(options.host),
    broadcastHook(options.publish),
  ];
  const tools = new ToolRegistry();
  for (const hook of hooks) hook.registerTools?.(tools);
  options.host.configureTasks(config.system.tasks.max_concurrent, config.system.tasks.task_timeout);
  options.host.searchIndex?.unloadAfter(config.system.sessions.unload_after);
  options.host.sessions.unloadIdleAfter(config.system.sessions.unload_after, (count) => {
    log.info("unloaded idle sessions", { count });
    releaseMemory(options.host.sessions);
  });
  const packageSkills = (id: string) => {
    const repo = installed.find((p) => p.id === id)?.repo;
    return repo ? listSkillInfos([{ path: repo, source: id, sourceKind: "package" }], []).map((s) => s.name) : undefined;
  };
  const composeAgents = (warnings: RuntimeLog) => {
    // A `cwd` that names no directory fails the build (start or reload) with the key that names it.
    const settings = (a: AgentConfig, key: string, source?: string) => ({
      ...toAgentSettings(a, packageSkills, warnings),
      source,
      cwd: a.cwd === undefined ? undefined : resolveWorkingDir(a.cwd, options.env, `${where(source)}: ${key}.cwd`),
    });
    return buildAgents({
      hooks,
      crab: settings(config.system.crab, "system.crab"),
      identityFile: paths.crabMd,
      manifestAgents: Object.fromEntries([...sourcedAgents].map(([n, a]) => [n, settings(a.config, `agents.${n}`, a.source)])),
      promptDirs: [
        { path: paths.localAgents, source: LOCAL_SOURCE },
        ...packageRepos(installed).map((r) => ({ path: join(r.path, "agents"), source: r.source, packaged: true })),
      ],
      promptFiles: Object.fromEntries([...sourcedAgents].flatMap(([n, a]) => (a.promptFile ? [[n, a.promptFile]] : []))),
      log: warnings,
    });
  };
  const detected = await detection;
  if (detected) {
    providers = detected.providers;
    activeModel ??= detected.activeModel;
    log.info("no provider configured; detected one", { source: detected.source, model: activeModel ?? "" });
  }
  const models = new ModelRegistry(providers, { disabled: config.disabled.providers });
  const runtime: BuiltRuntime = {
    agents: composeAgents(log),
    models,
    prices: new PriceBook(new Map(providers.map((p) => [p.name, { kind: p.kind, prices: config.provider[p.name]?.prices }]))),
    dailyBudgetUsd: config.system.budget.daily_usd,
    tools,
    hooks,
    memory,
    mcp,
    mcpServers: configured,
    activeModel,
    noModelHint: noModelHint(
      paths.config,
      models.models().map((m) => m.name),
    ),
    home: paths.home,
    cwd: workDir,
    toolPolicy: policy,
  };
  if (!background) return runtime;
  // The prompts name the connected servers: compose them again once they are known (warnings were given).
  return { ...runtime, whenMcpReady: configured.ready([]).then((): Runtime => ({ ...runtime, agents: composeAgents(SILENT_LOG) })) };
}

/**
 * `[agents.*]` left in config.toml (the deprecated location, docs/packages.md#manifests) are read
 * after the local manifest instead of being silently ignored: each one is
 * named in a warning, and loses to a manifest entry of the same name.
 */
function withConfigAgents(manifest: Record<string, AgentConfig>, fromConfig: Record<string, AgentConfig>, log: RuntimeLog): Record<string, AgentConfig> {
  const merged = { ...manifest };
  for (const [name, agent] of Object.entries(fromConfig)) {
    if (Object.hasOwn(manifest, name)) {
      log.warn(`config.toml [agents.${name}] is ignored: local/CrabTalk.toml defines agent '${name}' too; remove one of them`);
    } else {
      log.warn(`config.toml [agents.${name}] is read from a deprecated location: move it to local/CrabTalk.toml`);
      merged[name] = agent;
    }
  }
  return merged;
}

/** The file (or package) an agent's keys were read from, for config errors. */
function where(source: string | undefined): string {
  if (source === undefined) return "config.toml";
  return source === LOCAL_SOURCE ? "local/CrabTalk.toml" : `package ${source}`;
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
    streamIdleTimeoutSecs: p.stream_idle_timeout,
    maxAnswerBytes: p.max_answer_bytes,
    apiVersion: p.api_version,
    region: p.region,
    accessKey: p.access_key,
    secretKey: p.secret_key,
    contextLimits: p.context_limits,
  };
}

/**
 * An agent's settings; a `skills` entry naming a package (`scope/name`,
 * docs/home.md#search-order) becomes the names of that package's skills, or is dropped with a
 * warning when no installed package has that name.
 */
export function toAgentSettings(
  a: AgentConfig,
  packageSkills: (id: string) => string[] | undefined = () => undefined,
  log: RuntimeLog = SILENT_LOG,
): AgentSettings {
  const skills = a.skills.flatMap((entry) => {
    if (!entry.includes("/")) return [entry];
    const names = packageSkills(entry);
    if (names === undefined) log.warn(`skills entry '${entry}' names no installed package, dropped`);
    return names ?? [];
  });
  return {
    description: a.description,
    model: a.model || undefined,
    maxIterations: a.max_iterations,
    thinking: a.thinking,
    members: a.members,
    skills,
    mcps: a.mcps,
    fallback: a.fallback,
    compactThreshold: a.compact_threshold,
    compactToolMaxLen: a.compact_tool_max_len,
    maxUsdPerRun: a.max_usd_per_run,
    maxTokensPerRun: a.max_tokens_per_run,
    runTimeoutSecs: a.run_timeout,
    approve: a.approve,
  };
}
