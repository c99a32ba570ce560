// The package, service and component commands of the CLI against a real
// daemon, a git hub made here and the example component.
import { beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { echoComponentBin, gitRepo, until } from "../support/hub.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { pidsWith, waitFor } from "../runtime/mcp/support.ts";

const marker = `crabtalk-cli-svc-${process.pid}`;
const bin = echoComponentBin(marker);
const repo = gitRepo({ "setup.sh": "echo preparing the echo\n" });
const brokenRepo = gitRepo({ "setup.sh": "echo trying\nexit 7\n" });
const hub = gitRepo({
  "demo/broken.toml": `[package]
description = "Fails its setup"
repository = ${JSON.stringify(brokenRepo)}
setup = { script = "setup.sh" }
`,
  "demo/echo.toml": `[package]
description = "An echo component with a setup step"
repository = ${JSON.stringify(repo)}
keywords = ["shouting"]
setup = { script = "setup.sh" }

[commands.echo]
bin = "crabtalk-echo-test"
`,
});

const fx = useLlmDaemon("openai", { env: { CRABTALK_HUB_URL: hub, PATH: `${bin}:${process.env.PATH}`, CRABTALK_SERVICE_MANAGER: "none" } });
let home: string;
beforeAll(() => {
  home = fx.env.daemon.home;
});
const cli = (...args: string[]) => runCli(args, { home });

test("search shows name, installed and description; pull prints steps and setup output; packages lists", async () => {
  const found = await cli("search", "shouting");
  expect(found.code).toBe(0);
  expect(found.stdout).toMatch(/^PACKAGE\s+INSTALLED\s+DESCRIPTION\ndemo\/echo\s+An echo component with a setup step\n$/);
  const pulled = await cli("pull", "demo/echo");
  expect(pulled.code).toBe(0);
  expect(pulled.stdout).toContain("syncing hub");
  expect(pulled.stdout).toContain("running setup script…");
  expect(pulled.stdout).toContain("  preparing the echo");
  expect(pulled.stdout).toContain("installed demo/echo");
  expect((await cli("search")).stdout).toMatch(/demo\/echo\s+yes\s+An echo/);
  expect((await cli("packages")).stdout).toMatch(/demo\/echo\s+An echo component/);
  // Pulled again: one line saying so, nothing reinstalled.
  const again = await cli("pull", "demo/echo");
  expect(again).toMatchObject({ code: 0, stderr: "", stdout: "demo/echo is already installed (crabtalk pull --force demo/echo reinstalls it)\n" });
  const bad = await cli("pull", "../etc/passwd");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toStartWith("crabtalk: invalid package '../etc/passwd'");
  // A person reads the message; the protocol's code (404 here) is not shown.
  const missing = await cli("pull", "demo/nothing-by-this-name");
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe("crabtalk: package 'demo/nothing-by-this-name' is not in the hub (crabtalk search lists what is)\n");
});

test("<name> start, ps, mcp list, service logs, <name> stop", async () => {
  const started = await cli("echo", "start");
  expect(started).toMatchObject({ code: 0, stdout: "service echo started\n" });
  expect(await waitFor(() => existsSync(join(home, "run/echo.port")), 15000)).toBe(true);
  expect((await cli("ps")).stdout).toMatch(/^NAME\s+PORT\s+STATE\necho\s+\d+\s+running\n$/);
  // Discovery connects within a moment of the port file appearing.
  const mcps = await until(
    async () => (await cli("mcp", "list")).stdout,
    (out) => /echo\s+connected/.test(out),
  );
  expect(mcps).toMatch(/echo\s+connected\s+1\s+run\/echo\.port\s+http:\/\/127\.0\.0\.1:\d+\/mcp/);
  expect((await cli("service", "logs", "echo")).stdout).toContain("echo: serving MCP on");
  expect((await cli("echo", "logs", "-n", "1")).stdout.trim().split("\n")).toHaveLength(1);
  expect(await cli("echo", "stop")).toMatchObject({ code: 0, stdout: "service echo stopped\n" });
  expect(await waitFor(() => pidsWith(marker).length === 0)).toBe(true);
  expect((await cli("ps")).stdout).toBe("no components running\n");
  const again = await cli("service", "stop", "echo");
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/^crabtalk: [^\n]*echo[^\n]*\n$/);
  expect(again.stderr).not.toContain("(error");
});

test("a pull whose setup fails prints its output and the error, exits 1, and installs nothing", async () => {
  const failed = await cli("pull", "demo/broken");
  expect(failed.code).toBe(1);
  expect(failed.stdout).toContain("  trying");
  expect(failed.stderr).toEndWith("setup script failed (exit 7)\n");
  expect((await cli("packages")).stdout).not.toContain("demo/broken");
});

test("rm removes the package", async () => {
  const removed = await cli("rm", "demo/echo");
  expect(removed.code).toBe(0);
  expect(removed.stdout).toContain("removed demo/echo");
  expect((await cli("packages")).stdout).toContain("no packages installed");
});
