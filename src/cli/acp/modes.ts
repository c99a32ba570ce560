// Agents as ACP session modes, the agent's skills as ACP slash commands
// (docs/editors.md#modes-and-commands).
import type { AvailableCommand, SessionModeState } from "@agentclientprotocol/sdk";
import type { Client } from "../../protocol/client.ts";

export async function agentModes(client: Client, current: string): Promise<SessionModeState> {
  const agents = await client.listAgents();
  return {
    currentModeId: current,
    availableModes: agents.map((a) => ({ id: a.name, name: a.name, description: a.description || null })),
  };
}

/** The enabled skills the agent may use (all of them for an agent without a skill scope, docs/agents.md#scope). */
export async function skillCommands(client: Client, agent: string): Promise<AvailableCommand[]> {
  // One request at a time: a connection answers in order (docs/protocol.md#connection-rules).
  const info = await client.getAgent(agent);
  const skills = await client.listSkills();
  const scope = new Set(info.skills);
  return skills
    .filter((s) => s.enabled && (scope.size === 0 || scope.has(s.name)))
    .map((s) => ({ name: s.name, description: `run the ${s.name} skill`, input: { hint: "what to do with it (optional)" } }));
}
