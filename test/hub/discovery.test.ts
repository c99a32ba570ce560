// Port-file discovery (docs/mcp.md): a component started by hand is
// connected without a reload, listed by ListMcps with its status, marked
// disconnected when its port stops answering, and forgotten with its file.
import { beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { McpStatus, SourceKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import { REPO } from "../support/daemon.ts";
import { agentCallsMcpTool, until } from "../support/hub.ts";
import { waitFor } from "../runtime/mcp/support.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const fx = useLlmDaemon("openai");
let client: Client;
beforeAll(() => {
  client = fx.client;
});

function startByHand(name: string): Bun.Subprocess {
  return Bun.spawn([process.execPath, join(REPO, "examples/component/echo.ts")], {
    env: { ...process.env, CRABTALK_HOME: fx.env.daemon.home, CRABTALK_COMPONENT_NAME: name },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
}

const component = (name: string) => async () => (await client.listMcps()).find((m) => m.name === name);

test("a component started by hand is connected without a reload and its tool is callable", async () => {
  const proc = startByHand("byhand");
  const found = await until(component("byhand"), (m) => m?.status === McpStatus.CONNECTED);
  const port = readFileSync(join(fx.env.daemon.home, "run/byhand.port"), "utf8");
  expect(found).toMatchObject({ source: "run/byhand.port", sourceKind: SourceKind.EXTERNAL, toolCount: 1, url: `http://127.0.0.1:${port}/mcp` });
  expect(await agentCallsMcpTool(fx.env.fake, client, "shout", { text: "by hand" })).toBe("BY HAND");

  proc.kill("SIGKILL"); // no chance to remove its port file
  await proc.exited;
  const dropped = await until(component("byhand"), (m) => m?.status === McpStatus.DISCONNECTED);
  expect(dropped?.status).toBe(McpStatus.DISCONNECTED);
  expect(dropped?.error).toContain("does not answer");

  rmSync(join(fx.env.daemon.home, "run/byhand.port"));
  expect(await until(component("byhand"), (m) => m === undefined)).toBeUndefined();
});

test("a component that stops cleanly removes its port file and is forgotten", async () => {
  const proc = startByHand("polite");
  expect((await until(component("polite"), (m) => m?.status === McpStatus.CONNECTED))?.status).toBe(McpStatus.CONNECTED);
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  expect(existsSync(join(fx.env.daemon.home, "run/polite.port"))).toBe(false);
  expect(await until(component("polite"), (m) => m === undefined)).toBeUndefined();
});

test("port files that lie (garbage, a port nobody serves MCP on) fail alone", async () => {
  const run = join(fx.env.daemon.home, "run");
  writeFileSync(join(run, "garbage.port"), "not a port");
  writeFileSync(join(run, "daemonport.port"), String(fx.env.daemon.port)); // the daemon's own TCP port: not MCP
  const liar = await until(component("daemonport"), (m) => m !== undefined && m.error !== "");
  expect(liar).toMatchObject({ status: McpStatus.DISCONNECTED });
  expect((await client.listMcps()).some((m) => m.name === "garbage")).toBe(false);
  await client.ping();
  rmSync(join(run, "garbage.port"));
  rmSync(join(run, "daemonport.port"));
});

test("a port that accepts and never answers holds up no other component, and ends disconnected", async () => {
  const run = join(fx.env.daemon.home, "run");
  // A ready component, hidden until the silent port is there (so only the handshakes race, not process start-up).
  const proc = startByHand("quick");
  expect(await waitFor(() => existsSync(join(run, "quick.port")), 15000)).toBe(true);
  renameSync(join(run, "quick.port"), join(fx.env.daemon.home, "quick.port.aside"));
  await until(component("quick"), (m) => m === undefined);
  const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  writeFileSync(join(run, "silent.port"), String(silent.port));
  renameSync(join(fx.env.daemon.home, "quick.port.aside"), join(run, "quick.port"));
  const list = await until(
    () => client.listMcps(),
    (l) => l.some((m) => m.name === "quick" && m.status === McpStatus.CONNECTED),
  );
  expect(list.find((m) => m.name === "quick")?.status).toBe(McpStatus.CONNECTED);
  expect(list.some((m) => m.name === "silent")).toBe(false); // its handshake is still waiting
  const stuck = await until(component("silent"), (m) => m !== undefined);
  expect(stuck).toMatchObject({ status: McpStatus.DISCONNECTED });
  expect(stuck?.error).toContain("timed out");
  proc.kill("SIGTERM");
  await proc.exited;
  rmSync(join(run, "silent.port"));
  silent.stop(true);
}, 30_000); // the silent port's handshake limit is 5 s
