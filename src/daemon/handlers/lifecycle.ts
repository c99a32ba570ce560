// Daemon lifecycle operations: Ping, GetStats, GetConfig, SetConfig, Reload (protocol.md §5.7).
import { readFileSync } from "node:fs";
import type { Handlers } from "../../protocol/server.ts";
import { badRequest, internal } from "../../protocol/errors.ts";
import { ConfigError } from "../config/error.ts";
import { validateConfig } from "../config/load.ts";
import { redactConfigJson, restoreRedacted } from "../config/redact.ts";
import { configJsonToToml, writeFileAtomic } from "../config/write.ts";
import type { DaemonState } from "../state.ts";

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
      },
    }),

    getConfig: () => ({
      case: "config",
      value: { config: JSON.stringify(redactConfigJson(state.config.raw)) },
    }),

    setConfig: async ({ config }) => {
      let incoming: unknown;
      try {
        incoming = JSON.parse(config);
      } catch (err) {
        throw badRequest(`invalid config JSON: ${(err as Error).message}`);
      }
      if (typeof incoming !== "object" || incoming === null || Array.isArray(incoming)) {
        throw badRequest("invalid config JSON: expected an object");
      }
      let text: string;
      try {
        const restored = restoreRedacted(incoming as Record<string, unknown>, state.config.raw);
        validateConfig(restored, { source: "config", requireModel: true });
        text = configJsonToToml(restored);
      } catch (err) {
        if (err instanceof ConfigError) throw badRequest(err.message);
        throw err;
      }
      const previous = readFileSync(state.paths.config, "utf8");
      writeFileAtomic(state.paths.config, text);
      try {
        await state.reload();
      } catch (err) {
        writeFileAtomic(state.paths.config, previous);
        throw internal(`config written but reload failed, previous config restored: ${(err as Error).message}`);
      }
      state.log.info("config replaced via SetConfig");
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
