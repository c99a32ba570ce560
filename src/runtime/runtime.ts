// One build of the runtime (docs/config.md#reload): agents, model routing, tools
// and hooks. Rebuilt on every reload; sessions live outside it, in the host.
import type { ModelEntry } from "../model/registry.ts";
import type { Model } from "../model/types.ts";
import type { AgentDefinition } from "./agent-settings.ts";
import type { RuntimeHook } from "./hooks.ts";
import type { MemoryStore } from "./memory/store.ts";
import type { ToolPolicy } from "./tool-policy.ts";
import { allows } from "./scope.ts";
import type { ToolRegistry } from "./tools/registry.ts";
import type { PriceBook } from "./usage/prices.ts";

/** Routes a model name to the provider that serves it. */
export interface ModelRouter {
  resolve(model: string): { provider: string; model: Model };
  /** The model's context window in tokens. */
  contextLimit(model: string): number;
  /** Every model it can resolve, with its provider. */
  models(): ModelEntry[];
}

/** The live MCP connections of a runtime, as operations see them. */
export interface McpConnections {
  servers(): { name: string; status: "connected" | "connecting" | "failed"; error: string; toolCount: number }[];
  /** Settles once the servers in `scope` (all when empty) are connected or have failed. */
  ready(scope: string[]): Promise<void>;
  close(): Promise<void>;
}

export interface Runtime {
  readonly agents: ReadonlyMap<string, AgentDefinition>;
  readonly models: ModelRouter;
  /** What each model's tokens cost; absent = every model has "no price". */
  readonly prices?: PriceBook;
  /** `[system.budget] daily_usd`; undefined = no daily budget. */
  readonly dailyBudgetUsd?: number;
  readonly tools: ToolRegistry;
  readonly hooks: readonly RuntimeHook[];
  /** The agents' memory (docs/memory.md), read at build; absent in bare runtimes. */
  readonly memory?: MemoryStore;
  /** This runtime's MCP servers and the components (connecting in the background at daemon start). */
  readonly mcp?: McpConnections;
  /** The configured MCP servers alone: what a reload may keep, and what it closes. */
  readonly mcpServers?: McpConnections;
  /**
   * Set while the MCP servers of a daemon start are still connecting: the
   * same runtime with the agents' prompts composed again once they are done.
   */
  readonly whenMcpReady?: Promise<Runtime>;
  /** `[system.crab] model` (or a detected default); undefined when none is configured. */
  readonly activeModel?: string;
  /** Message used when no model can be chosen at all. */
  readonly noModelHint: string;
  readonly home: string;
  /** Working directory of runs that name none and whose agent has no `cwd`: the user's home (docs/config.md). */
  readonly cwd: string;
  /** The tools' environment, secrets and sandbox; absent = the daemon's environment, no sandbox. */
  readonly toolPolicy?: ToolPolicy;
}

/**
 * The runtime a run of `agent` uses: when the agent may call MCP tools and the
 * servers are still connecting (daemon start), the run waits for them — each
 * within its connect timeout — and gets the prompts that name them.
 */
export async function runtimeFor(runtime: Runtime, agent: string): Promise<Runtime> {
  return (await mcpWait(runtime, agent)) ?? runtime;
}

/** What runtimeFor waits for; undefined when a run of `agent` can start on `runtime` at once. */
export function mcpWait(runtime: Runtime, agent: string): Promise<Runtime> | undefined {
  const def = runtime.agents.get(agent);
  if (!runtime.whenMcpReady || !def || !allows(def.toolWhitelist, "mcp")) return undefined;
  return runtime.whenMcpReady;
}

/** The model an agent runs on: its own, else the active one. */
export function modelNameFor(runtime: Runtime, agent: AgentDefinition): string | undefined {
  return agent.model ?? runtime.activeModel;
}
