// The hook lifecycle (docs/agent-loop.md#hooks). Features plug in here; the runtime
// calls the hooks at fixed points and the agent loop never sees them.
import type { AgentEvent } from "../agent/events.ts";
import type { UserMessage } from "../model/types.ts";
import type { AgentDefinition, AgentSettings } from "./agent-settings.ts";
import type { ToolRegistry } from "./tools/registry.ts";

export interface RunScene {
  agent: AgentDefinition;
  /** Every registered agent. */
  agents: AgentDefinition[];
  /** The session's working directory (or the daemon's). */
  cwd: string;
  home: string;
  sender?: string;
  session: bigint;
  /** The new user message, after preprocessing (set for before-run hooks). */
  userMessage?: string;
}

export interface RuntimeHook {
  /** Build agent: a block appended to the system prompt at registration (in hook order, docs/agent-loop.md#system-prompt). */
  promptBlock?(agent: AgentSettings & { name: string }): string;
  /** Register tools: at runtime construction. */
  registerTools?(registry: ToolRegistry): void;
  /** Preprocess: the user message before it enters history. */
  preprocess?(content: string, scene: RunScene): string;
  /** Before run: fresh auto-injected context (never persisted). */
  beforeRun?(scene: RunScene): UserMessage[];
  /** On event: every agent event of every run. */
  onEvent?(event: AgentEvent, scene: RunScene): void;
}

export function composePrompt(hooks: readonly RuntimeHook[], base: string, agent: AgentSettings & { name: string }): string {
  return base + hooks.map((h) => h.promptBlock?.(agent) ?? "").join("");
}

export function preprocess(hooks: readonly RuntimeHook[], content: string, scene: RunScene): string {
  return hooks.reduce((text, h) => (h.preprocess ? h.preprocess(text, scene) : text), content);
}

export function injected(hooks: readonly RuntimeHook[], scene: RunScene): UserMessage[] {
  return hooks.flatMap((h) => h.beforeRun?.(scene) ?? []).map((m) => ({ ...m, injected: true }));
}

export function observe(hooks: readonly RuntimeHook[], event: AgentEvent, scene: RunScene): void {
  for (const h of hooks) {
    try {
      h.onEvent?.(event, scene);
    } catch {
      // An observer's failure never disturbs the run.
    }
  }
}
