// MCP servers connect in the background: a server that hangs at connect does
// not delay the daemon's first Pong, and a run that can use MCP waits for a
// server still connecting, then sees its tools — through real daemons.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { McpStatus } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { EVERYTHING_ENTRY, pidsWith, waitFor } from "../runtime/mcp/support.ts";

const HANG = join(import.meta.dir, "../support/mcp-hang.ts");
const started: LlmDaemon[] = [];

afterAll(async () => {
  for (const env of started) {
    await env.stop();
    cleanup(env.daemon.home);
  }
});

function homeWithMcps(manifest: string): string {
  const home = tempHome();
  mkdirSync(join(home, "local"), { recursive: true });
  writeFileSync(join(home, "local/CrabTalk.toml"), manifest);
  return home;
}

const q = JSON.stringify;

test("a server that never answers initialize does not delay the first Pong; a run waiting for it can be cancelled; stopping the daemon ends it", async () => {
  const marker = `crabtalk-mcp-hang-${process.pid}`;
  const home = homeWithMcps(`[mcps.hung]\ncommand = ${q(process.execPath)}\nargs = [${q(HANG)}, "${marker}"]\n`);
  const env = await startLlmDaemon("openai", { home });
  const client = await env.daemon.client();
  await client.ping();
  // The Pong came while the server was still connecting: its connect timeout (30 s) has not passed.
  const [hung] = await client.listMcps();
  expect(hung).toMatchObject({ name: "hung", status: McpStatus.DISCONNECTED, error: "connecting" });
  expect(pidsWith(marker).length).toBeGreaterThan(0);
  // A run that may use MCP waits for the hung server; Cancel ends that wait and the run.
  const events: string[] = [];
  let interrupted = false;
  const run = (async () => {
    for await (const e of client.stream({ agent: "crab", content: "waiting", sender: "waiter" })) {
      events.push(e.event.case ?? "");
      if (e.event.case === "end") interrupted = e.event.value.interrupted;
    }
  })();
  const control = await env.daemon.client();
  let id: bigint | undefined;
  for (let i = 0; i < 500 && id === undefined; i++) {
    id = (await control.sessions()).find((s) => s.createdBy === "waiter" && s.active)?.id;
    if (id === undefined) await Bun.sleep(10);
  }
  await control.cancel(id!);
  await run;
  expect(events).toEqual(["start", "end"]);
  expect(interrupted).toBe(true);
  expect(env.fake.requests.filter((r) => r.body?.stream === true)).toEqual([]);
  await control.close();
  await client.close();
  expect(await env.daemon.stop()).toBe(0);
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true);
  cleanup(home);
});

test("a run started while a server is still connecting waits for it and can use its tools", async () => {
  const marker = `crabtalk-mcp-slow-${process.pid}`;
  const slow = `sleep 1; exec ${q(process.execPath)} ${q(EVERYTHING_ENTRY)} stdio ${marker}`;
  const home = homeWithMcps(`[mcps.slow]\ncommand = "bash"\nargs = ["-c", ${q(slow)}]\n`);
  const env = await startLlmDaemon("openai", { home });
  started.push(env);
  const client = await env.daemon.client();
  expect((await client.listMcps())[0].error).toBe("connecting");
  env.fake.script({ toolCalls: [{ id: "m1", name: "mcp", arguments: q({ name: "echo", args: q({ message: "waited" }) }) }] }, { text: "done" });
  let output = "";
  for await (const e of client.stream({ agent: "crab", content: "use mcp", sender: "early" })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  expect(output).toContain("waited");
  const system = env.fake.requests.find((r) => r.body?.stream === true)!.body.messages[0].content;
  expect(system).toContain("MCP servers: slow.");
  expect((await client.listMcps())[0].status).toBe(McpStatus.CONNECTED);
  await client.close();
});
