// ListMcps and SetLocalMcps (docs/protocol.md#mcp-servers, docs/mcp.md#listing-and-editing-servers).
import { badRequest } from "../../protocol/errors.ts";
import { McpStatus, SourceKind } from "../../protocol/gen/crabtalk_pb.ts";
import type { Handlers } from "../../protocol/server.ts";
import { ConfigError } from "../../config/error.ts";
import { redactEnv, restoreMcpSecrets } from "../../config/redact.ts";
import { manifestMcps, readManifest, writeManifestMcps } from "../manifest.ts";
import type { DaemonState } from "../state.ts";
import { listInstalled } from "../packages/installed.ts";
import { LOCAL_SOURCE, resolveMcps } from "../packages/resolve.ts";
import { SILENT_LOG } from "../../base/runtime-log.ts";

export function mcpHandlers(state: DaemonState): Handlers {
  return {
    listMcps: () => {
      const live = new Map((state.host.runtime.mcp?.servers() ?? []).map((s) => [s.name, s]));
      const disabled = state.config.config.disabled.mcps;
      const installed = listInstalled(state.paths.packages, state.paths.cacheRepos);
      const configured = resolveMcps(manifestMcps(state.paths.localManifest), installed, SILENT_LOG).map(({ config: m, source }) => {
        const enabled = !disabled.includes(m.name);
        const server = live.get(m.name);
        // A server still connecting (daemon start) is DISCONNECTED with the error "connecting".
        const status = !enabled
          ? McpStatus.DISCONNECTED
          : server?.status === "connected"
            ? McpStatus.CONNECTED
            : server?.status === "connecting"
              ? McpStatus.DISCONNECTED
              : McpStatus.FAILED;
        return {
          name: m.name,
          command: m.command,
          args: m.args,
          env: redactEnv(m.env) as Record<string, string>,
          url: m.url ?? "",
          auth: m.auth,
          source,
          autoRestart: m.auto_restart,
          enabled,
          sourceKind: source === LOCAL_SOURCE ? SourceKind.LOCAL : SourceKind.PACKAGE,
          status,
          error: !enabled ? "" : server?.status === "connecting" ? "connecting" : (server?.error ?? "not connected"),
          toolCount: server?.status === "connected" ? server.toolCount : 0,
        };
      });
      return {
        case: "mcpList",
        value: {
          mcps: [
            ...configured,
            ...componentInfos(
              state,
              configured.map((m) => m.name),
            ),
          ],
        },
      };
    },

    setLocalMcps: async ({ mcps }) => {
      const stored = (readManifest(state.paths.localManifest).mcps ?? {}) as Record<string, Record<string, unknown>>;
      const tables: Record<string, Record<string, unknown>> = {};
      for (const m of mcps) {
        if (!m.name.trim()) throw badRequest("every MCP server needs a name");
        if (Object.hasOwn(tables, m.name)) throw badRequest(`MCP server '${m.name}' is listed twice`);
        const table: Record<string, unknown> = m.url ? { url: m.url } : { command: m.command, ...(m.args.length > 0 ? { args: m.args } : {}) };
        if (m.auth) table.auth = true;
        if (m.autoRestart) table.auto_restart = true;
        if (Object.keys(m.env).length > 0) table.env = { ...m.env };
        try {
          tables[m.name] = restoreMcpSecrets(m.name, table, stored[m.name]);
        } catch (err) {
          if (err instanceof ConfigError) throw badRequest(err.message);
          throw err;
        }
      }
      const previous = stored;
      writeManifestMcps(state.paths.localManifest, tables);
      try {
        await state.reload();
      } catch (err) {
        writeManifestMcps(state.paths.localManifest, previous);
        throw new Error(`manifest written but reload failed, previous MCP servers restored: ${(err as Error).message}`);
      }
      return { case: "pong", value: {} };
    },
  };
}

/** Components found through run/<name>.port (ours: upstream hides them), with their live status. */
function componentInfos(state: DaemonState, configured: string[]) {
  return state.components
    .list()
    .filter((c) => !configured.includes(c.name))
    .map((c) => ({
      name: c.name,
      command: "",
      args: [],
      env: {},
      url: c.url,
      auth: false,
      source: `run/${c.name}.port`,
      autoRestart: false,
      enabled: true,
      sourceKind: SourceKind.EXTERNAL,
      status: c.status === "connected" ? McpStatus.CONNECTED : McpStatus.DISCONNECTED,
      error: c.error,
      toolCount: c.toolCount,
    }));
}
