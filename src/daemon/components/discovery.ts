// Port-file discovery of components (docs/mcp.md): every run/<name>.port is
// connected as an MCP server at http://127.0.0.1:<port>/mcp as soon as it
// appears (run/ is watched, no reload needed), marked disconnected when its
// port stops answering, and forgotten when its file goes.
import { watch, type FSWatcher } from "node:fs";
import { McpToolUnavailableError, type McpConnectOptions, type McpPool } from "../../runtime/mcp/types.ts";
import { portAnswers, readPortFiles } from "../../base/port-files.ts";

export const PROBE_INTERVAL_MS = 1000;
/** A component on this machine answers its handshake at once, or is not a component. */
const HANDSHAKE_TIMEOUT_MS = 5000;

export interface ComponentStatus {
  name: string;
  url: string;
  status: "connected" | "disconnected";
  error: string;
  toolCount: number;
}

interface Component {
  name: string;
  port: number;
  pool?: McpPool;
  error: string;
}

export class ComponentDiscovery {
  private readonly components = new Map<string, Component>();
  private watcher?: FSWatcher;
  private timer?: ReturnType<typeof setInterval>;
  private scanning?: Promise<void>;
  private rescan = false;
  private stopped = false;
  /** Components whose handshake is under way, with the port being tried. */
  private readonly connecting = new Map<string, number>();

  constructor(
    private readonly runDir: string,
    private readonly connect: Omit<McpConnectOptions, "baseEnv" | "extraEnv">,
    private readonly probeMs = PROBE_INTERVAL_MS,
  ) {}

  /** Connects what is there now, then follows run/. */
  async start(): Promise<void> {
    await this.refresh();
    try {
      this.watcher = watch(this.runDir, () => void this.refresh());
    } catch (err) {
      this.connect.log.warn(`cannot watch ${this.runDir} for components: ${(err as Error).message}; checking every ${this.probeMs} ms`);
    }
    this.timer = setInterval(() => void this.refresh(true), this.probeMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    clearInterval(this.timer);
    // A scan still connecting closes what it opens when it sees `stopped`.
    await Promise.all([...this.components.values()].map((c) => c.pool?.close()));
    this.components.clear();
  }

  list(): ComponentStatus[] {
    return [...this.components.values()].map((c) => {
      const server = c.pool?.servers()[0];
      return {
        name: c.name,
        url: urlOf(c.port),
        status: server?.status === "connected" ? "connected" : "disconnected",
        error: c.pool ? "" : c.error,
        toolCount: server?.toolCount ?? 0,
      };
    });
  }

  /** The connected components as one pool (the runtime joins it to its configured servers). */
  readonly pool: McpPool = {
    servers: () => this.live().flatMap((p) => p.servers()),
    // Components are connected as they are found; none is waited for.
    ready: () => Promise.resolve(),
    connectedNames: () => this.live().flatMap((p) => p.connectedNames()),
    tools: (scope) => this.live().flatMap((p) => p.tools(scope)),
    call: (name, args, signal) => {
      const owner = this.live().find((p) => p.tools([]).some((t) => t.name === name));
      return owner ? owner.call(name, args, signal) : Promise.reject(new McpToolUnavailableError(name));
    },
    // The discovery closes its own connections (stop()); a runtime reload must not.
    close: () => Promise.resolve(),
  };

  /** One scan at a time; a change during a scan triggers one more. */
  refresh(probe = false): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.scanning) {
      this.rescan = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      do {
        this.rescan = false;
        await this.scan(probe);
      } while (this.rescan);
    })()
      .catch((err) => this.connect.log.warn(`component discovery: ${(err as Error).message}`))
      .finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private live(): McpPool[] {
    return [...this.components.values()].flatMap((c) => (c.pool ? [c.pool] : []));
  }

  private async scan(probe: boolean): Promise<void> {
    const files = new Map(readPortFiles(this.runDir).map((f) => [f.name, f.port]));
    for (const [name, c] of this.components) {
      if (files.get(name) === c.port) continue;
      this.components.delete(name); // file gone or a new port: forget, reconnect below
      await c.pool?.close();
    }
    const probes: Promise<void>[] = [];
    for (const [name, port] of files) {
      const known = this.components.get(name);
      if (!known) this.connectInBackground(name, port);
      else if (probe && known.pool) probes.push(this.probe(known));
    }
    await Promise.all(probes);
  }

  /** Connects without holding up the scan: one silent port must not delay the others. */
  private connectInBackground(name: string, port: number): void {
    if (this.connecting.get(name) === port) return;
    this.connecting.set(name, port);
    void this.open(name, port).then(
      async (opened) => {
        if (this.connecting.get(name) === port) this.connecting.delete(name);
        const current = readPortFiles(this.runDir).find((f) => f.name === name)?.port;
        if (this.stopped || current !== port || this.components.has(name)) return void (await opened.pool?.close());
        this.components.set(name, opened);
      },
      (err: unknown) => {
        this.connecting.delete(name);
        this.connect.log.warn(`component '${name}': ${(err as Error).message}`);
      },
    );
  }

  private async probe(c: Component): Promise<void> {
    if (await portAnswers(c.port)) return;
    await c.pool?.close();
    c.pool = undefined;
    c.error = `port ${c.port} does not answer`;
    this.connect.log.warn(`component '${c.name}' dropped: ${c.error}`);
  }

  private async open(name: string, port: number): Promise<Component> {
    const { connectMcpServers } = await import("../../runtime/mcp/pool.ts");
    const pool = await connectMcpServers([{ name, args: [], env: {}, url: urlOf(port) }], {
      ...this.connect,
      baseEnv: {},
      extraEnv: {},
      handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
    });
    const server = pool.servers()[0];
    if (server?.status === "connected") return { name, port, pool, error: "" };
    await pool.close();
    return { name, port, error: server?.error ?? "not connected" };
  }
}

function urlOf(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}
