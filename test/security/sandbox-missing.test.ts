// Without bubblewrap on PATH: `required` makes bash refuse, saying how to
// install it; `auto` warns once at start and runs tools unsandboxed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let bin: string; // a PATH with bash and the basics, without bwrap
const daemons: LlmDaemon[] = [];

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), "crabtalk-nobwrap-"));
  for (const tool of ["bash", "cat", "touch", "echo"]) {
    const found = Bun.which(tool);
    if (found) symlinkSync(found, join(bin, tool));
  }
});
afterAll(async () => {
  for (const d of daemons) await d.stop();
  for (const d of daemons) cleanup(d.daemon.home);
  cleanup(bin);
});

async function daemonWith(tools: string): Promise<LlmDaemon> {
  const d = await startLlmDaemon("openai", { env: { PATH: bin }, extraConfig: `\n[system.tools]\n${tools}\n` });
  daemons.push(d);
  return d;
}

async function bashOutput(d: LlmDaemon, command: string, agent = "crab"): Promise<{ output: string; isError: boolean }> {
  d.fake.script({ toolCalls: [{ id: "m1", name: "bash", arguments: JSON.stringify({ command }) }] }, { text: "done" });
  const client = await d.daemon.client();
  let result: { output: string; isError: boolean } | undefined;
  try {
    // Read to the end: the scripted answer after the tool must be used by this run.
    for await (const e of client.stream({ agent, content: "go", sender: "missing-test" })) {
      if (e.event.case === "toolResult") result = { output: e.event.value.output, isError: e.event.value.isError };
    }
  } finally {
    await client.close();
  }
  if (result) return result;
  throw new Error("no tool result");
}

test('sandbox = "required" without bwrap: bash refuses, says how to install it, and nothing runs', async () => {
  const d = await daemonWith('sandbox = "required"');
  const marker = join(d.daemon.home, "ran");
  const r = await bashOutput(d, `touch ${marker}`);
  expect(r.isError).toBe(true);
  const { stderr } = JSON.parse(r.output) as { stderr: string };
  expect(stderr).toContain('sandbox = "required"');
  expect(stderr).toContain("bubblewrap (bwrap) is not on PATH");
  expect(stderr).toContain("apt-get install bubblewrap");
  expect(existsSync(marker)).toBe(false);
});

test('sandbox = "auto" without bwrap: one warning at start, tools run unsandboxed; network = false refuses', async () => {
  const d = await daemonWith('sandbox = "auto"');
  const client = await d.daemon.client();
  await client.createAgent("offline", JSON.stringify({ network: false }));
  await client.reload();
  await client.close();
  const r = await bashOutput(d, 'cat "$CRABTALK_HOME/config.toml" > /dev/null && echo readable');
  expect(JSON.parse(r.output)).toMatchObject({ stdout: "readable\n", exit_code: 0 });
  const offline = await bashOutput(d, "echo should-not-run", "offline");
  expect(offline.isError).toBe(true);
  expect(offline.output).toContain("network = false needs the sandbox");
  expect(offline.output).not.toContain("should-not-run\\n");
  const log = readFileSync(join(d.daemon.home, "logs/daemon.log"), "utf8");
  expect(log.match(/no tool sandbox: bubblewrap \(bwrap\) is not on PATH/g)).toHaveLength(1);
});

test("a bwrap that cannot create its namespaces counts as missing, with its reason", async () => {
  const broken = mkdtempSync(join(tmpdir(), "crabtalk-brokenbwrap-"));
  for (const tool of ["bash", "cat", "touch", "echo"]) {
    const found = Bun.which(tool);
    if (found) symlinkSync(found, join(broken, tool));
  }
  // What bwrap says where user namespaces are disabled.
  await Bun.write(join(broken, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
  await Bun.$`chmod 755 ${join(broken, "bwrap")}`;
  const d = await startLlmDaemon("openai", { env: { PATH: broken }, extraConfig: '\n[system.tools]\nsandbox = "required"\n' });
  daemons.push(d);
  const r = await bashOutput(d, "echo hi");
  expect(r.isError).toBe(true);
  expect(r.output).toContain("does not work here (bwrap: No permissions to create new namespace)");
  expect(r.output).toContain("apt-get install bubblewrap");
  cleanup(broken);
});

test("crabtalk doctor reports the sandbox: working with bwrap, a failure with the fix when required and missing", async () => {
  const home = mkdtempSync(join(tmpdir(), "crabtalk-doctor-sandbox-"));
  mkdirSync(home, { recursive: true });
  await Bun.write(join(home, "config.toml"), '[system.tools]\nsandbox = "required"\n');
  const withBwrap = await runCli(["doctor", "--json"], { home });
  const found = JSON.parse(withBwrap.stdout).checks.find((c: { what: string }) => c.what.includes("tool sandbox"));
  expect(found).toEqual({ outcome: "ok", what: expect.stringMatching(/^tool sandbox: bwrap \(.*bwrap\) works \(sandbox = "required"\)$/) });
  const without = await runCli(["doctor"], { home, env: { PATH: bin } });
  expect(without.code).toBe(1);
  expect(without.stdout).toContain('✗ no tool sandbox: bubblewrap (bwrap) is not on PATH (sandbox = "required"): tools refuse to run');
  expect(without.stdout).toContain("fix: install bubblewrap");
  cleanup(home);
});
