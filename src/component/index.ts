// The component kit (docs/mcp.md#components): serve MCP tools over streamable HTTP
// on 127.0.0.1:0, announce the port in <home>/run/<name>.port so the daemon
// connects without a reload, log to <home>/logs/<name>.log, and on SIGTERM
// or SIGINT remove the port file and exit cleanly.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { writeFileAtomicSync } from "../base/atomic-file.ts";
import { resolveHome } from "../base/home-paths.ts";

export { McpServer };

export interface ComponentOptions {
  /** The port file's and log's name; the daemon lists the component under it. */
  name: string;
  version?: string;
  /** Registers the component's tools (`server.registerTool(...)`). */
  tools(server: McpServer): void;
  /** Default: `$CRABTALK_HOME`, else ~/.crabtalk. */
  home?: string;
}

export interface RunningComponent {
  port: number;
  portFile: string;
  /** One line to logs/<name>.log. */
  log(message: string): void;
  /** Removes the port file and stops serving (what SIGTERM does, without exiting). */
  close(): Promise<void>;
}

export async function runComponent(options: ComponentOptions): Promise<RunningComponent> {
  const home = options.home ?? resolveHome(process.env);
  const runDir = join(home, "run");
  const logFile = join(home, "logs", `${options.name}.log`);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  mkdirSync(join(home, "logs"), { recursive: true });
  const log = (message: string) => appendFileSync(logFile, `${new Date().toISOString()} ${options.name}: ${message}\n`);

  // Stateless: every request gets its own server and transport, so no session state can leak between clients.
  const handle = async (req: Request): Promise<Response> => {
    const server = new McpServer({ name: options.name, version: options.version ?? "0.0.0" });
    options.tools(server);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      void server.close();
    }
  };
  const http = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => (new URL(req.url).pathname === "/mcp" ? handle(req) : new Response("not found\n", { status: 404 })),
  });
  const port = http.port!;
  const portFile = join(runDir, `${options.name}.port`);
  writeFileAtomicSync(portFile, String(port));
  log(`serving MCP on http://127.0.0.1:${port}/mcp`);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // A newer instance may have written its own port since: only remove ours.
    try {
      if (readFileSync(portFile, "utf8").trim() === String(port)) rmSync(portFile, { force: true });
    } catch {
      // already gone
    }
    await http.stop(true);
    log("stopped");
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void close().then(() => process.exit(0)));
  }
  return { port, portFile, log, close };
}
