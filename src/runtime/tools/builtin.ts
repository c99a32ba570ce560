// Registers the built-in tools that need only the host (docs/tools.md#the-registry)
// as a hook. Tools that need a feature's state are registered by that
// feature's hook: memory (memory/hook.ts), skill (skills/hook.ts), mcp (mcp/hook.ts).
import type { Host } from "../host.ts";
import type { RuntimeHook } from "../hooks.ts";
import { askUserTool } from "./ask-user.ts";
import { bashTool } from "./bash.ts";
import { delegateTool } from "./delegate.ts";

export function builtinToolsHook(host: Host): RuntimeHook {
  return {
    registerTools(registry) {
      registry.register(bashTool);
      registry.register(askUserTool(host.asks));
      registry.register(delegateTool(host));
    },
  };
}
