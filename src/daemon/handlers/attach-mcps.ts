// AttachMcps (docs/protocol.md "MCP servers of a sender", docs/mcp.md#servers-from-an-editor):
// an editor's MCP servers, connected for the runs of one sender until the
// connection that sent them closes. A stdio server runs like a configured one
// without `sandbox = true`: not sandboxed, in the user's home, with the tools'
// environment plus `[env]` plus its own `env`. Env and header values are
// never logged nor answered, and are redacted from what its tools answer.
import pkg from "../../../package.json" with { type: "json" };
import { expandConfig } from "../../config/expand.ts";
import type { Reply } from "../../protocol/codec.ts";
import { badRequest } from "../../protocol/errors.ts";
import { McpStatus, SourceKind, type AttachedMcpServer } from "../../protocol/gen/crabtalk_pb.ts";
import type { Handlers, RequestContext } from "../../protocol/server.ts";
import type { McpServerSpec } from "../../runtime/mcp/types.ts";
import { secretList } from "../../runtime/redact-output.ts";
import { checkSender } from "../request-names.ts";
import type { DaemonState } from "../state.ts";

export const ATTACHED_SOURCE = "attached";

export function attachMcpsHandlers(state: DaemonState): Handlers {
  return { attachMcps: (request, ctx) => attach(state, request.sender, request.servers, ctx) };
}

async function* attach(state: DaemonState, sender: string, servers: AttachedMcpServer[], ctx: RequestContext): AsyncGenerator<Reply> {
  if (!sender) throw badRequest("AttachMcps needs a sender: the runs that get the servers");
  checkSender(sender);
  if (servers.length === 0) throw badRequest("AttachMcps needs at least one server");
  const runtime = state.host.runtime;
  const specs = checkedSpecs(servers, runtime.cwd);
  const { connectMcpServers } = await import("../../runtime/mcp/pool.ts");
  const pool = await connectMcpServers(specs, {
    baseEnv: runtime.toolPolicy?.env ?? state.env,
    extraEnv: expandConfig(state.config.config, state.env).env,
    log: { warn: (m) => state.log.warn(`${m} (attached for sender ${sender})`) },
    clientVersion: pkg.version,
  });
  if (ctx.signal.aborted) {
    await pool.close(); // the client left while they connected
    return;
  }
  const secrets = secretList(servers.flatMap((s) => [...Object.values(s.env), ...Object.values(s.headers)]));
  const detach = state.senderMcps.attach(sender, { pool, secrets });
  state.log.info("attached MCP servers", { sender, servers: specs.map((s) => s.name).join(", ") });
  try {
    const live = new Map(pool.servers().map((s) => [s.name, s]));
    yield {
      case: "mcpList",
      value: {
        mcps: specs.map((s) => {
          const status = live.get(s.name);
          return {
            name: s.name,
            command: s.url ? "" : (s.command ?? ""),
            url: s.url ?? "",
            source: ATTACHED_SOURCE,
            enabled: true,
            sourceKind: SourceKind.EXTERNAL,
            status: status?.status === "connected" ? McpStatus.CONNECTED : McpStatus.FAILED,
            error: status?.error ?? "",
            toolCount: status?.toolCount ?? 0,
          };
        }),
      },
    };
    // Held until the client goes away (or the daemon stops): then the servers go too.
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    detach();
    await pool.close();
    state.log.info("detached MCP servers", { sender });
  }
}

/** The servers as the pool takes them; a bad one is a 400 that names it (never a value of its env or headers). */
function checkedSpecs(servers: AttachedMcpServer[], home: string): McpServerSpec[] {
  const names = new Set<string>();
  return servers.map((s) => {
    const name = s.name.trim();
    if (!name) throw badRequest("every attached MCP server needs a name");
    if (names.has(name)) throw badRequest(`MCP server '${name}' is attached twice`);
    names.add(name);
    if (s.url && s.command) throw badRequest(`MCP server '${name}': give a url (HTTP) or a command (stdio), not both`);
    if (s.url) {
      let url: URL;
      try {
        url = new URL(s.url);
      } catch {
        throw badRequest(`MCP server '${name}': url is not a URL`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest(`MCP server '${name}': url must be http or https, not ${url.protocol}`);
      if (Object.keys(s.env).length > 0) throw badRequest(`MCP server '${name}': env is for a stdio server; send headers to an HTTP one`);
      try {
        new Headers(s.headers);
      } catch {
        throw badRequest(`MCP server '${name}': a header name or value is not valid in HTTP`);
      }
      return { name, args: [], env: {}, url: s.url, headers: { ...s.headers } };
    }
    if (!s.command.trim()) throw badRequest(`MCP server '${name}' needs a command (stdio) or a url (HTTP)`);
    if (Object.keys(s.headers).length > 0) throw badRequest(`MCP server '${name}': headers are for an HTTP server`);
    return { name, command: s.command, args: [...s.args], env: { ...s.env }, cwd: home };
  });
}
