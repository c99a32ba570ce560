// Every operation the daemon answers.
import type { Handlers } from "../../protocol/server.ts";
import type { DaemonState } from "../state.ts";
import { agentHandlers } from "./agents.ts";
import { lifecycleHandlers } from "./lifecycle.ts";
import { providerHandlers } from "./providers.ts";
import { skillHandlers } from "./skills.ts";
import { cronHandlers } from "./cron.ts";
import { mcpHandlers } from "./mcps.ts";
import { memoryHandlers } from "./memory.ts";
import { sessionHandlers } from "./sessions.ts";
import { packageHandlers } from "./packages.ts";
import { serviceHandlers } from "./services.ts";
import { usageHandlers } from "./usage.ts";
import { attachMcpsHandlers } from "./attach-mcps.ts";
import { remoteHandlers } from "../../remote/handlers.ts";

export function daemonHandlers(state: DaemonState): Handlers {
  return {
    ...lifecycleHandlers(state),
    ...sessionHandlers(state),
    ...agentHandlers(state),
    ...providerHandlers(state),
    ...skillHandlers(state),
    ...cronHandlers(state),
    ...mcpHandlers(state),
    ...attachMcpsHandlers(state),
    ...memoryHandlers(state),
    ...packageHandlers(state),
    ...serviceHandlers(state.services),
    ...usageHandlers(state),
    ...remoteHandlers(state.remote),
    subscribeEvents: (_request, ctx) => state.events.subscribe(ctx.signal),
  };
}
