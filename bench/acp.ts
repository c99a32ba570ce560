// `crabtalk acp` (docs/editors.md) as an editor sees it, next to its floors
// measured in the same run, driven by the ACP library's own client
// (@agentclientprotocol/sdk) on the child's stdin/stdout:
//   - a prompt turn: `session/prompt` → the first `agent_message_chunk`, and →
//     the prompt's response, against the same turn as a protocol Stream on
//     the Unix socket of the same daemon (request → first chunk, → end), one
//     of each in turn, on the same fake provider (instant "ok"). `acp` opens
//     a connection to the daemon for every prompt; a Stream on a fresh
//     connection each turn is measured too, to show that share;
//   - the process's start: spawn → `initialize` answered, against spawn →
//     exit of `crabtalk --version` of the same command, in turn.
// From source (`bun src/main.ts acp`), and the compiled binary too when
// dist/crabtalk exists.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, type ClientConnection, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { spawnAcp } from "../test/support/acp-client.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import type { Client } from "../src/protocol/client.ts";
import { type BenchDaemon, SOURCE_COMMAND, TIMEOUT, compiledBinary, stopDaemon, trackCleanup, withTimeout } from "./daemon.ts";
import { harnessLoad } from "./harness-load.ts";
import { daemonCommand, startReachDaemon, unixClient } from "./reach-daemon.ts";
import { progress } from "./stats.ts";
import { ratios, type Spread, spread, timedTurn } from "./timed-turn.ts";

export interface AcpBenchOptions {
  /** Measured prompt turns per way (after `warmupTurns`). */
  turns: number;
  warmupTurns: number;
  /** Measured starts of each (after one unmeasured). */
  starts: number;
}

/** One `crabtalk acp` process with the library's client on its pipes; `firstChunkAt`: when the current prompt's first message chunk came. */
interface Editor {
  proc: ReturnType<typeof spawnAcp>;
  connection: ClientConnection;
  firstChunkAt?: number;
  stderr: Promise<string>;
}

function openEditor(home: string, command: string[]): Editor {
  const proc = spawnAcp(home, [], command);
  const stdin = new WritableStream<Uint8Array>({
    write(chunk) {
      proc.stdin.write(chunk);
      void proc.stdin.flush();
    },
    close() {
      void proc.stdin.end();
    },
  });
  const editor: Editor = { proc, connection: undefined as unknown as ClientConnection, stderr: new Response(proc.stderr).text() };
  editor.connection = client({ name: "bench-editor" })
    .onNotification("session/update", ({ params }) => {
      if (params.update.sessionUpdate === "agent_message_chunk") editor.firstChunkAt ??= performance.now();
    })
    .connect(ndJsonStream(stdin, proc.stdout));
  return editor;
}

/** Closes the editor's side; the process leaves when its stdin ends. */
async function closeEditor(editor: Editor): Promise<void> {
  editor.connection.close();
  void editor.proc.stdin.end();
  if ((await withTimeout(editor.proc.exited, 5000)) === TIMEOUT) {
    editor.proc.kill("SIGKILL");
    await editor.proc.exited;
  }
}

async function initialize(editor: Editor): Promise<void> {
  const init = await editor.connection.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  if (init.protocolVersion !== PROTOCOL_VERSION) throw new Error(`acp answered protocol version ${init.protocolVersion}`);
}

async function acpTurn(editor: Editor, sessionId: string): Promise<{ firstMs: number; endMs: number }> {
  editor.firstChunkAt = undefined;
  const t0 = performance.now();
  const res = await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
  const end = performance.now();
  if (res.stopReason !== "end_turn") throw new Error(`acp prompt stopped with ${res.stopReason}`);
  if (editor.firstChunkAt === undefined) throw new Error("acp prompt answered without an agent_message_chunk first");
  return { firstMs: editor.firstChunkAt - t0, endMs: end - t0 };
}

/** Prompt turns through acp, a Stream on a kept connection, and one on a fresh connection each turn, in turn. */
async function turns(d: BenchDaemon, command: string[], cwd: string, options: AcpBenchOptions) {
  const editor = openEditor(d.home, command);
  let kept: Client | undefined;
  try {
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request("session/new", { cwd, mcpServers: [] });
    kept = await unixClient(d);
    const keptClient = kept;
    const ways: Record<string, () => Promise<{ firstMs: number; endMs: number }>> = {
      acp: () => acpTurn(editor, sessionId),
      stream: () => timedTurn(keptClient, { agent: "crab", content: "hi", sender: "bench-acp-floor", cwd }),
      // As acp does for every prompt: the clock runs from before the connect.
      "stream, fresh connection": async () => {
        const t0 = performance.now();
        const fresh = await unixClient(d);
        const connectMs = performance.now() - t0;
        try {
          const t = await timedTurn(fresh, { agent: "crab", content: "hi", sender: "bench-acp-floor-fresh", cwd });
          return { firstMs: t.firstMs + connectMs, endMs: t.endMs + connectMs };
        } finally {
          await fresh.close();
        }
      },
    };
    const names = Object.keys(ways);
    for (let i = 0; i < options.warmupTurns; i++) for (const name of names) await ways[name]();
    const first: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const end: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const load = harnessLoad();
    for (let r = 0; r < options.turns; r++) {
      for (const name of r % 2 === 0 ? names : [...names].reverse()) {
        const t = await ways[name]();
        first[name].push(t.firstMs);
        end[name].push(t.endMs);
      }
    }
    const harness = load();
    const f: Record<string, Spread> = Object.fromEntries(names.map((n) => [n, spread(first[n])]));
    const e: Record<string, Spread> = Object.fromEntries(names.map((n) => [n, spread(end[n])]));
    return {
      first_chunk_ms: { ways: f, acp_to_stream: ratios(f.acp, f.stream) },
      end_ms: { ways: e, acp_to_stream: ratios(e.acp, e.stream) },
      per_way: options.turns,
      harness,
    };
  } finally {
    await kept?.close();
    await closeEditor(editor);
  }
}

/** spawn → `initialize` answered, against spawn → exit of `--version`, in turn. */
async function starts(d: BenchDaemon, command: string[], options: AcpBenchOptions) {
  const acp: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < options.starts + 1; i++) {
    const t0 = performance.now();
    const editor = openEditor(d.home, command);
    try {
      await initialize(editor);
      if (i > 0) acp.push(performance.now() - t0);
    } finally {
      await closeEditor(editor);
    }
    const t1 = performance.now();
    const proc = Bun.spawn([...command, "--version"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    const code = await proc.exited;
    if (code !== 0) throw new Error(`${command.join(" ")} --version exited ${code}`);
    if (i > 0) version.push(performance.now() - t1);
  }
  const a = spread(acp, 1);
  const v = spread(version, 1);
  return { acp_initialize_ms: a, version_exit_ms: v, ratio: ratios(a, v) };
}

async function variant(d: BenchDaemon, label: string, command: string[], cwd: string, options: AcpBenchOptions) {
  const t = await turns(d, command, cwd, options);
  const f = t.first_chunk_ms;
  const e = t.end_ms;
  progress(
    `reach acp ${label}: prompt → first chunk p50 ${f.ways.acp.p50} ms (Stream ${f.ways.stream.p50} ms, ×${f.acp_to_stream.p50}); ` +
      `→ response p50 ${e.ways.acp.p50} ms (Stream end ${e.ways.stream.p50} ms, ×${e.acp_to_stream.p50}); ` +
      `fresh-connection Stream end ${e.ways["stream, fresh connection"].p50} ms; bench CPU share ${t.harness.cpu_share}`,
  );
  const s = await starts(d, command, options);
  progress(`reach acp ${label}: start → initialize p50 ${s.acp_initialize_ms.p50} ms (--version ${s.version_exit_ms.p50} ms, ×${s.ratio.p50})`);
  return { command: command.map((p) => (p === process.execPath ? "bun" : p)).join(" ") + " acp", turns: t, start: s };
}

export async function runAcp(options: AcpBenchOptions) {
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const cwd = mkdtempSync(join(tmpdir(), "crabtalk-bench-acp-"));
  const releaseCwd = trackCleanup(() => rmSync(cwd, { recursive: true, force: true }));
  let d: BenchDaemon | undefined;
  try {
    d = await startReachDaemon(fake, "none");
    const source = await variant(d, "source", SOURCE_COMMAND, cwd, options);
    const binary = compiledBinary();
    const compiled = binary ? await variant(d, "compiled", [binary], cwd, options) : { skipped: "dist/crabtalk not built (bun run build)" };
    if (d.proc.exitCode !== null) throw new Error(`the daemon died during the acp bench:\n${d.stderrTail()}`);
    return { daemon: daemonCommand().label, source, compiled };
  } finally {
    if (d) await stopDaemon(d);
    await releaseFake();
    await releaseCwd();
  }
}
