// One build of the runtime (daemon.md §17.1): agents, model routing, tools
// and hooks. Rebuilt on every reload; sessions live outside it, in the host.
import type { ModelEntry } from "../model/registry.ts";
import type { Model } from "../model/types.ts";
import type { AgentDefinition } from "./agent-settings.ts";
import type { RuntimeHook } from "./hooks.ts";
import type { ToolRegistry } from "./tools.ts";

/** Routes a model name to the provider that serves it. */
export interface ModelRouter {
  resolve(model: string): { provider: string; model: Model };
  /** Every model it can resolve, with its provider. */
  models(): ModelEntry[];
}

/** The live MCP connections of a runtime, as operations see them. */
export interface McpConnections {
  servers(): { name: string; status: "connected" | "failed"; error: string; toolCount: number }[];
  close(): Promise<void>;
}

export interface Runtime {
  readonly agents: ReadonlyMap<string, AgentDefinition>;
  readonly models: ModelRouter;
  readonly tools: ToolRegistry;
  readonly hooks: readonly RuntimeHook[];
  /** MCP servers connected when this runtime was built. */
  readonly mcp?: McpConnections;
  /** `[system.crab] model` (or a detected default); undefined when none is configured. */
  readonly activeModel?: string;
  /** Message used when no model can be chosen at all. */
  readonly noModelHint: string;
  readonly home: string;
  /** Default working directory for tools. */
  readonly cwd: string;
}

/** The model an agent runs on: its own, else the active one. */
export function modelNameFor(runtime: Runtime, agent: AgentDefinition): string | undefined {
  return agent.model ?? runtime.activeModel;
}
