// Scope holds (docs/security.md): a scoped agent's bash calling
// `crabtalk send --agent crab` starts no unscoped run, over the Unix socket
// or TCP, unsandboxed or sandboxed; its members stay reachable.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, MAIN } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let env: LlmDaemon;
let client: Client;
const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)}`;

beforeAll(async () => {
  env = await startLlmDaemon("openai");
  client = await env.daemon.client();
  await client.createAgent("helper", JSON.stringify({ description: "a member" }));
  // Unsandboxed: the daemon's process-tree check is all that holds.
  await client.createAgent("scoped", JSON.stringify({ members: ["helper"], sandbox: "off" }));
  // Sandboxed: the socket is hidden; TCP stays, and the check holds there too.
  await client.createAgent("boxed", JSON.stringify({ members: ["helper"] }));
});
afterAll(async () => {
  await client?.close();
  await env?.stop();
});

const crabSessions = () => readdirSync(join(env.daemon.home, "sessions")).filter((f) => f.startsWith("crab_"));

/** Runs `agent` whose model calls bash once with `command`; returns bash's JSON result. */
async function viaBash(agent: string, command: string, ...after: { text: string }[]): Promise<{ stdout: string; stderr: string; exit_code: number }> {
  env.fake.script({ toolCalls: [{ id: "s1", name: "bash", arguments: JSON.stringify({ command, timeout: 60 }) }] }, ...after, { text: `${agent} done` });
  let output = "";
  for await (const e of client.stream({ agent, content: "go", sender: "scope-test", newChat: true })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  return JSON.parse(output);
}

test("crabtalk send --agent crab from a scoped agent's bash is refused; no crab run starts", async () => {
  const before = crabSessions();
  const requests = env.fake.requests.length;
  const r = await viaBash("scoped", `${cli} send --agent crab --sender escapee "do anything"`);
  expect(r.exit_code).toBe(1);
  expect(r.stderr).toContain("running agent 'crab' (not in its members) is not allowed from the tools of scoped agent 'scoped'");
  expect(crabSessions()).toEqual(before);
  // The model was asked exactly twice (the tool call, then the answer): crab never ran.
  expect(env.fake.requests.slice(requests).filter((q) => q.body?.stream)).toHaveLength(2);
});

test("a member runs; reconfiguring the daemon and reading events are refused", async () => {
  const r = await viaBash("scoped", `${cli} send --agent helper "hello member"; ${cli} reload 2>&1; ${cli} sessions 2>&1`, { text: "helper answer" });
  expect(r.stdout).toContain("helper answer");
  expect(r.stdout).toContain("Reload is not allowed from the tools of scoped agent 'scoped'");
  expect(r.stdout).toContain("Sessions is not allowed from the tools of scoped agent 'scoped'");
});

test("stripping the tool token and starting a new session does not get out", async () => {
  const before = crabSessions();
  const r = await viaBash("scoped", `setsid env -u CRABTALK_TOOL_TOKEN ${cli} send --agent crab "escape" ; echo "exit=$?"`);
  expect(r.stderr + r.stdout).toContain("is not allowed from the tools of scoped agent 'scoped'");
  expect(crabSessions()).toEqual(before);
});

test("sandboxed: the socket is not visible, and TCP with a forged home is confined too", async () => {
  const before = crabSessions();
  const unix = await viaBash("boxed", `${cli} send --agent crab "via the socket"`);
  expect(unix.exit_code).not.toBe(0);
  expect(unix.stderr).toContain("cannot reach the daemon");
  const tcp = await viaBash(
    "boxed",
    `mkdir -p /tmp/h/run && echo ${env.daemon.port} > /tmp/h/run/crabtalk.port && CRABTALK_HOME=/tmp/h ${cli} --tcp send --agent crab "via tcp"`,
  );
  expect(tcp.exit_code).toBe(1);
  expect(tcp.stderr).toContain("running agent 'crab' (not in its members) is not allowed from the tools of scoped agent 'boxed'");
  expect(crabSessions()).toEqual(before);
});

test("crab's own bash is not confined: an unscoped agent may run any agent", async () => {
  // crab is sandboxed (auto): it reaches the daemon over TCP only.
  const r = await viaBash(
    "crab",
    `mkdir -p /tmp/h/run && echo ${env.daemon.port} > /tmp/h/run/crabtalk.port && CRABTALK_HOME=/tmp/h ${cli} --tcp send --agent helper "from crab"`,
    { text: "helper for crab" },
  );
  expect(r.stdout).toContain("helper for crab");
});

test("continuing another agent's open session by its id is refused", async () => {
  const crab = await client.send({ agent: "crab", content: "an owner's chat", sender: "owner" });
  const requests = env.fake.requests.length;
  const r = await viaBash("scoped", `${cli} send --agent helper --session ${crab.session} "take over"`);
  expect(r.exit_code).toBe(1);
  expect(r.stderr).toContain("running agent 'crab' (not in its members) is not allowed from the tools of scoped agent 'scoped'");
  expect(env.fake.requests.slice(requests).filter((q) => q.body?.stream)).toHaveLength(2);
});

/** Starts `command` in the background from the scoped agent's bash (`launcher` in front), and returns what it printed once done. */
async function lateOutput(launcher: string, command: string): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), "crabtalk-scope-")), "late.txt");
  const late = `sleep 0.5; ${command} > ${out}.tmp 2>&1; mv ${out}.tmp ${out}`;
  const r = await viaBash("scoped", `${launcher} nohup sh -c ${JSON.stringify(late)} > /dev/null 2>&1 & echo started`);
  expect(r.stdout).toBe("started\n");
  // bash has returned; the orphan connects after it, from outside bash's process tree.
  for (let i = 0; i < 300 && !existsSync(out); i++) await Bun.sleep(50);
  const text = readFileSync(out, "utf8");
  cleanup(join(out, ".."));
  return text;
}

const refusedCrab = "running agent 'crab' (not in its members) is not allowed from the tools of scoped agent 'scoped'";

test("a background process that outlives bash, with its token stripped, stays confined (its session)", async () => {
  const before = crabSessions();
  expect(await lateOutput("env -u CRABTALK_TOOL_TOKEN", `${cli} send --agent crab "late escape"`)).toContain(refusedCrab);
  expect(crabSessions()).toEqual(before);
});

test("one in a new session, over TCP, stays confined (its token)", async () => {
  const before = crabSessions();
  const tcpHome = mkdtempSync(join(tmpdir(), "crabtalk-scope-home-"));
  mkdirSync(join(tcpHome, "run"));
  writeFileSync(join(tcpHome, "run/crabtalk.port"), String(env.daemon.port));
  expect(await lateOutput("setsid", `CRABTALK_HOME=${tcpHome} ${cli} --tcp send --agent crab "late escape"`)).toContain(refusedCrab);
  expect(crabSessions()).toEqual(before);
  cleanup(tcpHome);
});

test("no tool reconfigures the daemon: crab's bash cannot repoint a provider (and its key) or reload", async () => {
  const hijack = JSON.stringify({ api_key: "<redacted>", base_url: "http://127.0.0.1:9/v1", models: ["fake-model"] });
  const r = await viaBash(
    "crab",
    `mkdir -p /tmp/h/run && echo ${env.daemon.port} > /tmp/h/run/crabtalk.port; export CRABTALK_HOME=/tmp/h; ${cli} --tcp providers set fake '${hijack}' 2>&1; ${cli} --tcp reload 2>&1`,
  );
  expect(r.stdout).toContain("SetProvider is not allowed from the tools of agent 'crab'");
  expect(r.stdout).toContain("Reload is not allowed from the tools of agent 'crab'");
  const fake = (await client.listProviders()).find((p) => p.name === "fake")!;
  expect(fake.config).toContain(new URL(env.fake.url).port);
});
