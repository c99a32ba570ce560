// Scope holds (docs/security.md): a connection from the process tree of a
// scoped agent's tool may only run that agent's members. It may ping, read a
// member's definition and run a member; everything else is refused with 400.
// No tool, scoped or not, may change the daemon's configuration: that would
// turn the sandbox off or point a provider, with its key, at another server.
import type { Handlers, RequestContext } from "../protocol/server.ts";
import { operationName, type ClientCase } from "../protocol/codec.ts";
import { badRequest } from "../protocol/errors.ts";
import type { DaemonState } from "./state.ts";
import type { ToolOrigin } from "./tool-origin.ts";

/** The members a connection from these agents' tools may run; undefined = not confined. */
export function allowedMembers(state: DaemonState, origin: ReadonlySet<string>): Set<string> | undefined {
  let allowed: Set<string> | undefined;
  for (const name of origin) {
    const agent = state.host.runtime.agents.get(name);
    // An agent that is gone, or scoped (a tool whitelist), confines; an unscoped one does not.
    if (agent && agent.toolWhitelist.length === 0) continue;
    const members = new Set(agent?.members ?? []);
    allowed = allowed ? new Set([...allowed].filter((m) => members.has(m))) : members;
  }
  return allowed;
}

/** Operations that change what the daemon is or does: never from a tool. */
const CONFIG_OPS = new Set<ClientCase>([
  "setProvider",
  "deleteProvider",
  "setActiveModel",
  "setLocalMcps",
  // It starts programs outside the sandbox, as configured MCP servers do.
  "attachMcps",
  "createAgent",
  "updateAgent",
  "deleteAgent",
  "installPackage",
  "uninstallPackage",
  "startService",
  "stopService",
  "createCron",
  "deleteCron",
  "reload",
  "setEnabled",
  "setConfig",
  "deleteConversation",
]);

interface RunTarget {
  agent: string;
  session?: bigint;
  resumeFile?: string;
}

/**
 * Handlers that wait for the connection's origin and refuse what is outside
 * its scope; they tell the run handlers which runs' tools the caller is.
 */
export function confinedHandlers(handlers: Handlers, state: DaemonState, origin: Promise<ToolOrigin>): Handlers {
  const callerRuns = origin.then((o) => o.runs);
  const scope = origin.then(({ agents }) => ({ agents: [...agents].join("', '"), tool: agents.size > 0, members: allowedMembers(state, agents) }));
  const refuse = (what: string, agents: string, scoped = true) =>
    badRequest(`${what} is not allowed from the tools of ${scoped ? "scoped " : ""}agent '${agents}'`);
  const checkRun = (target: RunTarget, members: Set<string>, agents: string) => {
    if (target.resumeFile) throw refuse("resuming a conversation file", agents);
    const agent = target.session !== undefined ? (state.host.sessions.get(target.session)?.agent ?? "") : target.agent;
    if (!members.has(agent)) throw refuse(`running agent '${agent || target.agent}' (not in its members)`, agents);
  };
  const wrapped: Record<string, unknown> = {};
  for (const [key, handler] of Object.entries(handlers)) {
    const op = key as ClientCase;
    wrapped[op] = async (request: unknown, ctx: RequestContext) => {
      const { agents, tool, members } = await scope;
      if (tool && !members && CONFIG_OPS.has(op)) throw refuse(operationName(op), agents, false);
      if (members && op !== "ping") {
        if (op === "send" || op === "stream") checkRun(request as RunTarget, members, agents);
        else if (op === "getAgent") {
          if (!members.has((request as { name: string }).name)) throw refuse(`reading agent '${(request as { name: string }).name}'`, agents);
        } else throw refuse(operationName(op), agents);
      }
      return (handler as (r: unknown, c: RequestContext) => unknown)(request, { ...ctx, callerRuns });
    };
  }
  return wrapped as Handlers;
}
