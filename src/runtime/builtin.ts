// Registers the built-in tools (docs/tools.md#the-registry) as a hook.
import type { Host } from "./host.ts";
import type { RuntimeHook } from "./hooks.ts";
import { askUserTool } from "./tools/ask-user.ts";
import { bashTool } from "./tools/bash.ts";
import { delegateTool } from "./tools/delegate.ts";

export function builtinToolsHook(host: Host): RuntimeHook {
  return {
    registerTools(registry) {
      registry.register(bashTool);
      registry.register(askUserTool(host.asks));
      registry.register(delegateTool(host));
    },
  };
}
