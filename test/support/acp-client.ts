// Drives `crabtalk acp` as an editor would: the child process on a pipe, the
// ACP library's own client side on top, and every byte of its stdout kept so a
// test can check that nothing but JSON-RPC was written there.
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { MAIN } from "./daemon.ts";
import { until } from "./until.ts";

export interface AcpProcess {
  proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  connection: ClientConnection;
  /** Every session/update received, in order. */
  updates: SessionNotification[];
  /** Every permission request received, in order. */
  permissions: RequestPermissionRequest[];
  /** How the next permission requests are answered (default: cancelled). */
  answer: (request: RequestPermissionRequest) => Promise<RequestPermissionResponse> | RequestPermissionResponse;
  /** Closes stdin, waits for the exit; resolves stdout and stderr as they were written. */
  close(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** A writable over the child's stdin. */
function stdinOf(proc: Bun.Subprocess<"pipe", "pipe", "pipe">): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write(chunk) {
      proc.stdin.write(chunk);
      void proc.stdin.flush();
    },
    close() {
      void proc.stdin.end();
    },
  });
}

export function spawnAcp(home: string, args: string[] = [], command: string[] = [process.execPath, MAIN]): Bun.Subprocess<"pipe", "pipe", "pipe"> {
  return Bun.spawn([...command, "acp", ...args], {
    env: { ...process.env, CRABTALK_HOME: home, NO_COLOR: "1", CRABTALK_SERVICE_MANAGER: "none" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
}

export function startAcp(home: string, args: string[] = [], command?: string[]): AcpProcess {
  const proc = spawnAcp(home, args, command);
  const [forClient, forCheck] = proc.stdout.tee();
  const stdout = new Response(forCheck).text();
  const stderr = new Response(proc.stderr).text();
  const acp: AcpProcess = {
    proc,
    updates: [],
    permissions: [],
    answer: () => ({ outcome: { outcome: "cancelled" } }),
    connection: undefined as unknown as ClientConnection,
    async close() {
      acp.connection.close();
      void proc.stdin.end();
      const code = await proc.exited;
      return { code, stdout: await stdout, stderr: await stderr };
    },
  };
  acp.connection = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      acp.updates.push(params);
    })
    .onRequest("session/request_permission", ({ params }) => {
      acp.permissions.push(params);
      return acp.answer(params);
    })
    .connect(ndJsonStream(stdinOf(proc), forClient));
  return acp;
}

/** Fails on any stdout line that is not one JSON-RPC 2.0 message. */
export function onlyJsonRpc(stdout: string): void {
  const lines = stdout.split("\n");
  if (lines.at(-1) !== "") throw new Error(`stdout does not end with a newline: ${JSON.stringify(stdout.slice(-200))}`);
  for (const line of lines.slice(0, -1)) {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      throw new Error(`a stdout line is not JSON: ${JSON.stringify(line)}`);
    }
    if (typeof msg !== "object" || msg === null || (msg as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      throw new Error(`a stdout line is not JSON-RPC 2.0: ${line}`);
    }
  }
}

type RawMessage = { id?: number | string | null; result?: unknown; error?: { code: number; message: string; data?: unknown } };

/** Plain lines to `crabtalk acp` and its answers by id, for what the library's client would never send. */
export function startRawAcp(home: string) {
  const proc = spawnAcp(home);
  const [lines, forCheck] = proc.stdout.tee();
  const stdout = new Response(forCheck).text();
  const stderr = new Response(proc.stderr).text();
  const received: RawMessage[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const piece of lines) {
      buffered += decoder.decode(piece, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          received.push(JSON.parse(line) as RawMessage);
        } catch {
          // onlyJsonRpc reports it at the end
        }
      }
    }
  })();
  return {
    send(line: string): void {
      proc.stdin.write(`${line}\n`);
      void proc.stdin.flush();
    },
    /** The response with this id (null: the error answer to a line without one). */
    answer(id: number | null): Promise<RawMessage> {
      return until(() => received.find((m) => m.id === id && ("result" in m || "error" in m)), { what: `the answer to request ${id}` });
    },
    async close(): Promise<{ code: number; stdout: string; stderr: string }> {
      void proc.stdin.end();
      const code = await proc.exited;
      return { code, stdout: await stdout, stderr: await stderr };
    },
  };
}
