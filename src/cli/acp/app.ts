// The ACP agent of `crabtalk acp`: each ACP method handled by talking to the
// daemon as a client (docs/editors.md).
import { agent, RequestError, type AgentApp, type AgentContext, type SessionUpdate } from "@agentclientprotocol/sdk";
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { DaemonError } from "../../protocol/client.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import type { DaemonReady } from "./daemon-ready.ts";
import { answering } from "./errors.ts";
import { initializeResponse } from "./initialize.ts";
import { note } from "./log.ts";
import { attachable, attachServers } from "./mcp-servers.ts";
import { agentModes, skillCommands } from "./modes.ts";
import { promptText } from "./prompt-text.ts";
import { replayHistory } from "./replay.ts";
import { indexed, remember } from "./session-index.ts";
import { isSessionId, newSessionId } from "./session-id.ts";
import type { AcpSession, Sessions } from "./session.ts";
import { runPrompt } from "./turn.ts";

export interface AcpOptions {
  /** The agent new sessions talk to (`--agent`). */
  agent: string;
  conn: ConnectOptions;
  daemon: DaemonReady;
  /** The sessions this process serves (the caller cancels their runs when the editor leaves). */
  sessions: Sessions;
}

export function acpAgent(options: AcpOptions): AgentApp {
  const { conn, sessions } = options;
  const daemon = <T>(fn: Parameters<typeof withClient<T>>[1]) =>
    answering(async () => {
      await options.daemon.ensure();
      return withClient(conn, fn);
    });
  const known = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };
  const update = (client: AgentContext, sessionId: string, u: SessionUpdate) => client.notify("session/update", { sessionId, update: u });
  /** After the answer that named the session: its commands, so the editor can offer them. */
  const advertise = (client: AgentContext, session: AcpSession) =>
    setTimeout(() => {
      void withClient(conn, (c) => skillCommands(c, session.agent))
        .then((availableCommands) => update(client, session.id, { sessionUpdate: "available_commands_update", availableCommands }))
        .catch((err: unknown) => note(`could not list the skills of ${session.agent}: ${String(err)}`));
    }, 0);

  return agent({ name: "crabtalk" })
    .onRequest("initialize", () => {
      // Start (or find) the daemon while the editor goes on.
      options.daemon.ensure().catch((err: unknown) => note(`the daemon could not be started: ${String(err)}`));
      return initializeResponse();
    })
    .onRequest("session/new", async ({ params, client }) => {
      const cwd = checkedCwd(params.cwd);
      const servers = attachable(params.mcpServers);
      const modes = await daemon(async (c) => {
        await c.getAgent(options.agent);
        return agentModes(c, options.agent);
      });
      const id = newSessionId();
      const hold = servers.length > 0 ? await answering(() => attachServers(conn, id, servers)) : undefined;
      const session = sessions.add(id, options.agent, cwd);
      sessions.holdMcps(session, hold);
      remember({ sessionId: session.id, agent: session.agent, cwd });
      advertise(client, session);
      return { sessionId: session.id, modes };
    })
    .onRequest("session/load", async ({ params, client }) => {
      const cwd = checkedCwd(params.cwd);
      const servers = attachable(params.mcpServers);
      if (!isSessionId(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
      const found = await daemon(async (c) => {
        const file = (await c.listConversations()).find((f) => f.sender === params.sessionId);
        const agentName = file?.agent ?? indexed().get(params.sessionId)?.agent;
        if (!agentName) return undefined;
        if (file) await replayHistory(c, file.filePath, (u) => update(client, params.sessionId, u));
        return { agentName, modes: await agentModes(c, agentName) };
      });
      if (!found) throw RequestError.sessionNotFound(params.sessionId);
      const hold = servers.length > 0 ? await answering(() => attachServers(conn, params.sessionId, servers)) : undefined;
      const session = sessions.add(params.sessionId, found.agentName, cwd);
      sessions.holdMcps(session, hold);
      remember({ sessionId: session.id, agent: session.agent, cwd });
      advertise(client, session);
      return { modes: found.modes };
    })
    .onRequest("session/list", async ({ params }) => {
      const files = await daemon((c) => c.listConversations(options.agent));
      const titles = new Map(files.map((f) => [f.sender, f.title]));
      const list = [...indexed().values()]
        .filter((e) => e.agent === options.agent && (!params.cwd || e.cwd === params.cwd))
        .sort((a, b) => b.at.localeCompare(a.at))
        .map((e) => ({ sessionId: e.sessionId, cwd: e.cwd, title: titles.get(e.sessionId) || null, updatedAt: e.at }));
      return { sessions: list };
    })
    .onRequest("session/set_mode", async ({ params, client }) => {
      const session = known(params.sessionId);
      await daemon(async (c) => {
        try {
          await c.getAgent(params.modeId);
        } catch (err) {
          if (err instanceof DaemonError && err.code === 404) throw RequestError.invalidParams({ modeId: params.modeId }, `no agent '${params.modeId}'`);
          throw err;
        }
      });
      session.agent = params.modeId;
      remember({ sessionId: session.id, agent: session.agent, cwd: session.cwd });
      advertise(client, session);
      return {};
    })
    .onRequest("session/prompt", async ({ params, client }) => {
      const session = known(params.sessionId);
      const content = promptText(params.prompt);
      if (!content.trim()) throw RequestError.invalidParams(undefined, "the prompt has no text");
      await answering(() => options.daemon.ensure());
      return answering(() => runPrompt(session, content, client, conn));
    })
    .onNotification("session/cancel", ({ params }) => {
      void sessions.get(params.sessionId)?.turn?.cancel();
    });
}

/** session/new and session/load need an absolute, existing directory. */
function checkedCwd(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, not '${cwd}'`);
  let dir = false;
  try {
    dir = statSync(cwd).isDirectory();
  } catch {
    // reported below
  }
  if (!dir) throw RequestError.invalidParams({ cwd }, `cwd is not a directory: ${cwd}`);
  return cwd;
}
