// Daemon lifecycle operations: Ping, GetStats, GetConfig, SetConfig, Reload (docs/protocol.md#the-daemon).
import type { Handlers } from "../../protocol/server.ts";
import { badRequest, internal } from "../../protocol/errors.ts";
import { ConfigError } from "../../config/error.ts";
import { validateConfig } from "../../config/load.ts";
import { redactConfigJson, restoreRedacted } from "../../config/redact.ts";
import { configJsonTable, withoutFilledDefaults } from "../../config/write.ts";
import { patchToml } from "../../config/patch.ts";
import { unservedModel, type ModelRefs } from "../../config/references.ts";
import { changeConfig, parseJsonObject } from "../config-change.ts";
import type { DaemonState } from "../state.ts";
import { VERSION } from "../../version.ts";
import { ownMemory } from "../own-memory.ts";

export function lifecycleHandlers(state: DaemonState): Handlers {
  return {
    ping: () => ({ case: "pong", value: {} }),

    getStats: () => ({
      case: "stats",
      value: {
        uptimeSecs: BigInt(Math.floor((Date.now() - state.startedAt) / 1000)),
        activeSessions: state.host.sessions.size,
        registeredAgents: state.host.runtime.agents.size,
        activeModel: state.host.runtime.activeModel ?? "",
        version: VERSION,
        ...ownMemory(),
      },
    }),

    getConfig: () => ({
      case: "config",
      value: { config: JSON.stringify(redactConfigJson(state.config.raw)) },
    }),

    setConfig: async ({ config }) => {
      const incoming = parseJsonObject(config, "config");
      let next: Record<string, unknown>;
      try {
        const restored = restoreRedacted(incoming, state.config.raw);
        const parsed = validateConfig(restored, { source: "config", requireModel: true });
        // Without providers the daemon detects them from the environment: nothing to check against.
        const served = Object.values(parsed.provider).flatMap((p) => p.models);
        if (served.length > 0) {
          const agents: [string, ModelRefs][] = [
            ["system.crab", parsed.system.crab],
            ...Object.entries(parsed.agents).map(([n, a]): [string, ModelRefs] => [`agents.${n}`, a]),
          ];
          for (const [at, agent] of agents) {
            const problem = unservedModel(agent, served, at);
            if (problem) throw new ConfigError(`config: ${problem}`);
          }
        }
        next = withoutFilledDefaults(configJsonTable(restored), state.config.raw, configJsonTable(redactConfigJson({})));
      } catch (err) {
        if (err instanceof ConfigError) throw badRequest(err.message);
        throw err;
      }
      // The whole config is replaced by editing the file in place: comments stay.
      await changeConfig(state, (text) => patchToml(text, next), "SetConfig");
      return { case: "pong", value: {} };
    },

    reload: async () => {
      try {
        await state.reload();
      } catch (err) {
        throw internal(`reload failed, previous config stays in effect: ${(err as Error).message}`);
      }
      return { case: "pong", value: {} };
    },
  };
}
