// The daemon's agents, models, MCP servers and packages with their status
// (docs/protocol.md: ListAgents, ListModels, ListMcps, ListPackages, GetStats).
import { useEffect, useState } from "preact/hooks";
import { McpStatus, type AgentInfo, type DaemonStats, type McpInfo, type ModelInfo, type PackageInfo } from "../../protocol/gen/crabtalk_pb.ts";
import type { Requests } from "../connection.ts";
import { duration, errorText } from "../format.ts";
import { ErrorLine, ViewBar } from "./view-parts.tsx";

interface Snapshot {
  stats: DaemonStats;
  agents: AgentInfo[];
  models: ModelInfo[];
  mcps: McpInfo[];
  packages: PackageInfo[];
}

const MCP_STATUS: Record<McpStatus, string> = {
  [McpStatus.MCP_STATUS_UNKNOWN]: "unknown",
  [McpStatus.CONNECTED]: "connected",
  [McpStatus.DISCONNECTED]: "disconnected",
  [McpStatus.FAILED]: "failed",
};

export function SystemView({ requests }: { requests: Requests }) {
  const [snapshot, setSnapshot] = useState<Snapshot | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = async () => {
    try {
      const stats = await requests.run((c) => c.getStats());
      const agents = await requests.run((c) => c.listAgents());
      const models = await requests.run((c) => c.listModels());
      const mcps = await requests.run((c) => c.listMcps());
      const packages = await requests.run((c) => c.listPackages());
      setSnapshot({ stats, agents, models, mcps, packages });
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => void load(), []);

  return (
    <section aria-labelledby="system-title">
      <ViewBar id="system-title" title="System" onRefresh={load} />
      <ErrorLine error={error} />
      {snapshot && (
        <>
          <p class="meta">
            crabtalk {snapshot.stats.version} · up {duration(Number(snapshot.stats.uptimeSecs))} · {snapshot.stats.activeSessions} open sessions · active model{" "}
            {snapshot.stats.activeModel || "none"}
          </p>
          <h3>Agents</h3>
          <ul class="cards">
            {snapshot.agents.map((a) => (
              <li key={a.name} class="card">
                <div class="line">
                  <strong>{a.name}</strong>
                  <span class="badge">{a.model ?? `${snapshot.stats.activeModel} (active)`}</span>
                </div>
                {a.description && <div>{a.description}</div>}
                <div class="meta">
                  {a.source || "config"}
                  {a.approve.length > 0 && ` · asks before: ${a.approve.join(", ")}`}
                  {a.mcps.length > 0 && ` · MCP: ${a.mcps.join(", ")}`}
                </div>
              </li>
            ))}
          </ul>
          <h3>Models</h3>
          <ul class="cards">
            {snapshot.models.map((m) => (
              <li key={`${m.provider}/${m.name}`} class="card">
                <div class="line">
                  <strong>{m.name}</strong>
                  <span class={m.enabled ? "badge ok" : "badge off"}>{m.active ? "active" : m.enabled ? "enabled" : "disabled"}</span>
                </div>
                <div class="meta">
                  provider {m.provider}
                  {m.contextLimit > 0 && ` · ${m.contextLimit.toLocaleString()} tokens of context`}
                </div>
              </li>
            ))}
          </ul>
          <h3>MCP servers</h3>
          {snapshot.mcps.length === 0 ? (
            <p class="empty">No MCP server is configured.</p>
          ) : (
            <ul class="cards">
              {snapshot.mcps.map((m) => (
                <li key={m.name} class="card">
                  <div class="line">
                    <strong>{m.name}</strong>
                    <span class={`badge ${m.enabled ? (m.status === McpStatus.CONNECTED ? "ok" : m.status === McpStatus.FAILED ? "bad" : "") : "off"}`}>
                      {m.enabled ? MCP_STATUS[m.status] : "disabled"}
                    </span>
                  </div>
                  <div class="meta">
                    {m.toolCount} tools · {m.url || [m.command, ...m.args].join(" ")}
                  </div>
                  {m.error && <div class="error">{m.error}</div>}
                </li>
              ))}
            </ul>
          )}
          <h3>Packages</h3>
          {snapshot.packages.length === 0 ? (
            <p class="empty">No package is installed.</p>
          ) : (
            <ul class="cards">
              {snapshot.packages.map((p) => (
                <li key={p.name} class="card">
                  <strong>{p.name}</strong>
                  {p.description && <div class="meta">{p.description}</div>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
