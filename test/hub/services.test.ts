// Package commands as services supervised by the daemon itself (no service
// manager here, as in CI; docs/packages.md#services, docs/mcp.md): the example component is
// started, found through its port file, used by an agent, restarted when
// killed, and stopped again.
import { beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { McpStatus } from "../../src/protocol/gen/crabtalk_pb.ts";
import { daemonError } from "../support/daemon-error.ts";
import { REPO, startDaemon } from "../support/daemon.ts";
import { agentCallsMcpTool, echoComponentBin, until } from "../support/hub.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { pidsWith, waitFor } from "../runtime/mcp/support.ts";

const marker = `crabtalk-svc-${process.pid}`;
const bin = echoComponentBin(marker);
const hub = mkdtempSync(join(tmpdir(), "crabtalk-svchub-"));
mkdirSync(join(hub, "test"));
writeFileSync(
  join(hub, "test/echo.toml"),
  '[package]\ndescription = "an echo component"\n\n[commands.echo]\ndescription = "shouts"\nbin = "crabtalk-echo-test"\n',
);
// An npm package (a local one: tests need no registry) whose program is the example component.
const npmPackage = mkdtempSync(join(tmpdir(), "crabtalk-npmpkg-"));
mkdirSync(join(npmPackage, "bin"));
writeFileSync(join(npmPackage, "package.json"), JSON.stringify({ name: "npm-echo", version: "1.0.0", bin: { "npm-echo": "bin/echo.js" } }));
writeFileSync(
  join(npmPackage, "bin/echo.js"),
  `#!/usr/bin/env node\nprocess.env.CRABTALK_COMPONENT_NAME = "npmecho";\nawait import(${JSON.stringify(join(REPO, "examples/component/echo.ts"))});\n`,
);
writeFileSync(join(hub, "test/npmecho.toml"), `[package]\ndescription = "an npm command"\n\n[commands.npmecho]\nnpm = "npm-echo@file:${npmPackage}"\n`);

const daemonEnv = { PATH: `${bin}:${process.env.PATH}`, CRABTALK_SERVICE_MANAGER: "none" };
const fx = useLlmDaemon("openai", { env: daemonEnv });
let client: Client;
let portFile: string;
beforeAll(async () => {
  client = fx.client;
  portFile = join(fx.env.daemon.home, "run/echo.port");
  for await (const _ of client.installPackage({ package: "test/echo", path: hub })) void _;
});

const port = () => (existsSync(portFile) ? readFileSync(portFile, "utf8").trim() : "");
const echoStatus = async () => (await client.listMcps()).find((m) => m.name === "echo");

const shout = (text: string) => agentCallsMcpTool(fx.env.fake, client, "shout", { text });

const waitUntil = (cond: () => Promise<boolean>) => until(cond, (ok) => ok);

test("StartService runs the component; its port file is found and an agent calls its tool", async () => {
  await client.startService("echo");
  expect(await waitFor(() => port() !== "", 15000)).toBe(true);
  expect(await waitUntil(async () => (await echoStatus())?.status === McpStatus.CONNECTED)).toBe(true);
  expect(await echoStatus()).toMatchObject({ source: "run/echo.port", toolCount: 1, url: `http://127.0.0.1:${port()}/mcp` });
  expect(await shout("hello component")).toBe("HELLO COMPONENT");
  const logs = await client.serviceLogs("echo");
  expect(logs).toContain("echo: serving MCP on");
  expect(logs).toContain('echo: shout "hello component"');
  expect((await client.serviceLogs("echo", 1)).split("\n")).toHaveLength(1);
});

test("bad service requests are refused and change nothing", async () => {
  expect((await daemonError(client.startService("echo"))).code).toBe(400);
  expect((await daemonError(client.startService("nope"))).code).toBe(404);
  expect((await daemonError(client.stopService("nope"))).code).toBe(404);
  for (const name of ["../../etc/passwd", "a/b", "..", ""]) {
    expect((await daemonError(client.serviceLogs(name))).code).toBe(400);
    expect((await daemonError(client.startService(name))).code).toBe(400);
  }
  expect(await client.serviceLogs("quiet")).toBe(`no logs yet: ${join(fx.env.daemon.home, "logs/quiet.log")}`);
  expect(pidsWith(marker).length).toBeGreaterThan(0);
});

test("a killed component is restarted by the daemon and found again", async () => {
  const before = port();
  const [pid] = pidsWith(marker);
  process.kill(pid, "SIGKILL");
  expect(await waitFor(() => port() !== "" && port() !== before && pidsWith(marker).some((p) => p !== pid), 20000)).toBe(true);
  expect(await waitUntil(async () => (await echoStatus())?.status === McpStatus.CONNECTED)).toBe(true);
  expect(await shout("again")).toBe("AGAIN");
  expect(await client.serviceLogs("echo")).toContain("restarting in");
});

test("StopService stops it, removes its port file, and it is gone from ListMcps", async () => {
  await client.stopService("echo");
  expect(existsSync(portFile)).toBe(false);
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true);
  expect(await waitUntil(async () => (await echoStatus()) === undefined)).toBe(true);
  expect((await daemonError(client.stopService("echo"))).code).toBe(404);
});

test("an npm command is installed with the Bun runtime into .cache/commands/<name> and runs under it", async () => {
  const steps: string[] = [];
  for await (const e of client.installPackage({ package: "test/npmecho", path: hub })) {
    if (e.event.case === "step") steps.push(e.event.value.message);
  }
  expect(steps).toContain(`installing npm-echo@file:${npmPackage} with bun…`);
  const dir = join(fx.env.daemon.home, ".cache/commands/npmecho");
  expect(existsSync(join(dir, "node_modules/.bin/npm-echo"))).toBe(true);
  await client.startService("npmecho");
  expect(await waitUntil(async () => (await client.listMcps()).find((m) => m.name === "npmecho")?.status === McpStatus.CONNECTED)).toBe(true);
  expect(pidsWith(dir).length).toBe(1);
  // A reinstall that fails leaves the working command in place.
  writeFileSync(join(hub, "test/npmecho.toml"), `[commands.npmecho]\nnpm = "npm-echo@file:${npmPackage}-missing"\n`);
  expect(
    (
      await daemonError(
        (async () => {
          for await (const _ of client.installPackage({ package: "test/npmecho", path: hub, force: true })) void _;
        })(),
      )
    ).code,
  ).toBe(500);
  expect(existsSync(join(dir, "node_modules/.bin/npm-echo"))).toBe(true);
  expect(existsSync(`${dir}.new`) || existsSync(`${dir}.old`)).toBe(false);
  for await (const _ of client.uninstallPackage("test/npmecho")) void _;
  expect(existsSync(dir)).toBe(false);
  expect(await waitFor(() => pidsWith(dir).length === 0)).toBe(true);
  expect(existsSync(join(fx.env.daemon.home, "run/npmecho.port"))).toBe(false);
});

test("daemon shutdown stops the components it supervises, and the next daemon starts them again", async () => {
  await client.startService("echo");
  expect(await waitFor(() => port() !== "", 15000)).toBe(true);
  await client.close();
  expect(await fx.env.daemon.stop()).toBe(0);
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true);
  expect(existsSync(portFile)).toBe(false);

  const next = await startDaemon({ home: fx.env.daemon.home, env: daemonEnv });
  try {
    expect(await waitFor(() => port() !== "", 15000)).toBe(true);
    const c = await next.client();
    await c.stopService("echo");
    await c.close();
    expect(existsSync(join(fx.env.daemon.home, "services.toml"))).toBe(false); // nothing left to start again
  } finally {
    await next.stop();
  }
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true);
});
