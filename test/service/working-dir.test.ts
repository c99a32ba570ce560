// Where a daemon started by `crabtalk start` (background process, no service
// manager) runs things (docs/config.md "Working directory"): never in the
// crabtalk home, which the sandbox hides. A run whose client names no `cwd`
// works in its agent's `cwd`, else in the user's home — a raw Stream, a
// delegated task, a cron firing alike; stdio MCP servers start in the user's
// home. Needs a working bwrap (.ci/run installs it): the sandbox is required.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "../../src/protocol/client.ts";
import { connect } from "../../src/transport/connect.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { runCli } from "../support/cli.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { providerConfig } from "../support/llm-daemon.ts";
import { EVERYTHING_ENTRY, pidsWith } from "../runtime/mcp/support.ts";

let fake: FakeLLM;
let home: string; // the crabtalk home
let user: string; // the daemon's $HOME
let work: string; // the `worker` agent's cwd
let client: Client;
const boxedMarker = `crabtalk-cwd-boxed-${process.pid}`;
const openMarker = `crabtalk-cwd-open-${process.pid}`;
const cli = (args: string[]) => runCli(args, { home, env: { HOME: user } });

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  home = tempHome();
  // Not under /tmp: the sandbox gives each command a private, empty /tmp.
  user = realpathSync(mkdtempSync("/var/tmp/crabtalk-user-"));
  work = join(user, "work");
  mkdirSync(work);
  mkdirSync(join(home, "local/skills/where"), { recursive: true });
  writeFileSync(join(home, "local/skills/where/SKILL.md"), "---\nname: where\ndescription: say where you are\n---\n\nRun pwd.\n");
  writeFileSync(join(home, "config.toml"), `${providerConfig("openai", fake)}\n[system.tools]\nsandbox = "required"\n`);
  mkdirSync(join(home, "local/agents"));
  for (const agent of ["worker", "plain"]) writeFileSync(join(home, `local/agents/${agent}.md`), `You are ${agent}.\n`);
  const server = (marker: string) => `command = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING_ENTRY)}, "stdio", "${marker}"]`;
  writeFileSync(
    join(home, "local/CrabTalk.toml"),
    `[agents.worker]\ncwd = "~/work"\n\n[agents.plain]\ndescription = "no cwd of its own"\n\n` +
      `[mcps.boxed]\n${server(boxedMarker)}\nsandbox = true\n\n[mcps.open]\n${server(openMarker)}\n`,
  );
  const started = await cli(["start"]);
  expect(started).toMatchObject({ code: 0 });
  client = new Client(await connect({ unix: join(home, "run/crabtalk.sock") }));
});

afterAll(async () => {
  await client?.close();
  await cli(["stop"]);
  await fake.stop();
  cleanup(home);
  cleanup(user);
});

interface BashResult {
  stdout: string;
  stderr: string;
  exit_code: number;
}

/** The bash results the model was shown in requests made since `from` (a delegated task's are not streamed to the client). */
function bashResults(from: number): BashResult[] {
  const out: BashResult[] = [];
  for (const r of fake.requests.slice(from)) {
    const messages = (r.body?.messages ?? []) as { role: string; content: unknown }[];
    const last = messages.at(-1);
    if (last?.role !== "tool" || typeof last.content !== "string") continue;
    try {
      const parsed = JSON.parse(last.content) as BashResult;
      if (typeof parsed.exit_code === "number") out.push(parsed);
    } catch {
      out.push({ stdout: "", stderr: last.content, exit_code: -1 });
    }
  }
  return out;
}

const bashCall = (command: string) => ({ toolCalls: [{ id: "p1", name: "bash", arguments: JSON.stringify({ command }) }] });
const PWD = bashCall("pwd");

/** A Stream without `cwd` (as a raw protocol client or a component sends it) whose model calls bash `command`. */
async function pwdOf(agent: string, command = "pwd"): Promise<BashResult> {
  const from = fake.requests.length;
  fake.script(bashCall(command), { text: "done" });
  for await (const e of client.stream({ agent, content: "where are you?", sender: "cwd-test", newChat: true })) void e;
  const [result] = bashResults(from);
  return result!;
}

test("the background daemon's own working directory is the user's home", () => {
  const pid = Number(readFileSync(join(home, "run/crabtalk.pid"), "utf8"));
  expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(user);
});

test("a run without cwd runs bash in the user's home, sandboxed", async () => {
  expect(await pwdOf("crab")).toEqual({ stdout: `${user}\n`, stderr: "", exit_code: 0 });
  expect(await pwdOf("plain")).toEqual({ stdout: `${user}\n`, stderr: "", exit_code: 0 });
});

test("working in the user's home, bash still cannot see or write its credential stores nor ~/.crabtalk", async () => {
  mkdirSync(join(user, ".ssh"));
  writeFileSync(join(user, ".ssh/id_ed25519"), "PRIVATE KEY MATERIAL");
  mkdirSync(join(user, ".crabtalk"));
  writeFileSync(join(user, ".crabtalk/config.toml"), "# the default home's config");
  const r = await pwdOf(
    "crab",
    "echo $(ls -A .ssh | wc -l) $(ls -A .crabtalk | wc -l); cat .ssh/id_ed25519; echo planted > .ssh/planted || echo refused; echo ok > note.txt && echo wrote",
  );
  expect(r.stdout).toBe("0 0\nrefused\nwrote\n");
  expect(readFileSync(join(user, ".ssh/id_ed25519"), "utf8")).toBe("PRIVATE KEY MATERIAL");
  expect(readFileSync(join(user, "note.txt"), "utf8")).toBe("ok\n");
});

test("an agent's cwd key is where its runs without cwd work; a cwd the client sends still wins", async () => {
  expect(await pwdOf("worker")).toEqual({ stdout: `${work}\n`, stderr: "", exit_code: 0 });
  const from = fake.requests.length;
  fake.script(PWD, { text: "done" });
  for await (const e of client.stream({ agent: "worker", content: "where?", sender: "cwd-test", newChat: true, cwd: user })) void e;
  expect(bashResults(from)).toEqual([{ stdout: `${user}\n`, stderr: "", exit_code: 0 }]);
});

test("a delegated task runs where its agent's runs do: the agent's cwd, else the user's home", async () => {
  for (const [agent, expected] of [
    ["plain", user],
    ["worker", work],
  ] as const) {
    const from = fake.requests.length;
    const delegate = { id: "d1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent, message: "run pwd" }] }) };
    fake.script({ toolCalls: [delegate] }, PWD, { text: "task done" }, { text: "all done" });
    for await (const e of client.stream({ agent: "crab", content: "delegate it", sender: "cwd-test", newChat: true, cwd: work })) void e;
    expect({ agent, results: bashResults(from) }).toEqual({ agent, results: [{ stdout: `${expected}\n`, stderr: "", exit_code: 0 }] });
  }
});

test("a cron firing runs in its own cwd, else where its session's runs do", async () => {
  fake.script({ text: "hello" });
  const session = (await client.send({ agent: "crab", content: "hi", sender: "cwd-cron" })).session;
  for (const cwd of [undefined, work]) {
    const from = fake.requests.length;
    fake.script(PWD, { text: "fired" });
    const created = await client.createCron({ schedule: "* * * * * *", skill: "where", session, once: true, cwd });
    expect(created.cwd).toBe(cwd ?? "");
    if (cwd) expect(readFileSync(join(home, "crons.toml"), "utf8")).toContain(`cwd = "${cwd}"`);
    await until("the cron to fire and delete itself", () => bashResults(from).length === 1 && readFileSync(join(home, "crons.toml"), "utf8") === "");
    expect(bashResults(from)).toEqual([{ stdout: `${cwd ?? user}\n`, stderr: "", exit_code: 0 }]);
  }
  const missing = join(user, "no-such-dir");
  const refused = await daemonError(client.createCron({ schedule: "* * * * * *", skill: "where", session, cwd: missing }));
  expect(refused).toMatchObject({ code: 400, message: `cwd: no directory at '${missing}'` });
  expect(await client.listCrons()).toEqual([]);
});

test("stdio MCP servers, sandboxed or not, start in the user's home", async () => {
  const cwdOf = (marker: string) => {
    const pids = pidsWith(marker).filter((p) => readFileSync(`/proc/${p}/comm`, "utf8").trim() !== "bwrap");
    return pids.length === 1 ? readlinkSync(`/proc/${pids[0]}/cwd`) : undefined;
  };
  await until("both MCP servers to run", () => cwdOf(boxedMarker) !== undefined && cwdOf(openMarker) !== undefined);
  expect({ boxed: cwdOf(boxedMarker), open: cwdOf(openMarker) }).toEqual({ boxed: user, open: user });
});

test("a cwd that names no directory is a clear config error that changes nothing", async () => {
  const file = join(user, "a-file");
  writeFileSync(file, "");
  const refusals: [string, string][] = [
    ["~/missing", `invalid agent config: cwd: no directory at '${user}/missing'`],
    [file, `invalid agent config: cwd: '${file}' is not a directory`],
    ["work", "invalid agent config: cwd: 'work' must be an absolute path or start with ~/"],
  ];
  for (const [cwd, message] of refusals) {
    expect(await daemonError(client.createAgent("lost", JSON.stringify({ cwd })))).toMatchObject({ code: 400, message });
    expect(await daemonError(client.updateAgent("worker", JSON.stringify({ cwd })))).toMatchObject({ code: 400, message });
  }
  expect((await client.listAgents()).map((a) => a.name)).toEqual(["crab", "plain", "worker"]);
  expect(JSON.parse((await client.getAgent("worker")).config).cwd).toBe(work);

  const configFile = join(home, "config.toml");
  const before = readFileSync(configFile, "utf8");
  const config = JSON.parse(await client.getConfig());
  config.system.crab.cwd = "~/missing";
  expect(await daemonError(client.setConfig(JSON.stringify(config)))).toMatchObject({
    code: 400,
    message: `config.toml: system.crab.cwd: no directory at '${user}/missing'`,
  });
  expect(readFileSync(configFile, "utf8")).toBe(before);

  // A hand-edited manifest: the reload fails naming the key, the agents stay as they were.
  const manifest = join(home, "local/CrabTalk.toml");
  const good = readFileSync(manifest, "utf8");
  writeFileSync(manifest, good.replace('cwd = "~/work"', 'cwd = "~/gone"'));
  try {
    expect((await daemonError(client.reload())).message).toContain(`local/CrabTalk.toml: agents.worker.cwd: no directory at '${user}/gone'`);
    expect(await pwdOf("worker")).toEqual({ stdout: `${work}\n`, stderr: "", exit_code: 0 });
  } finally {
    writeFileSync(manifest, good);
  }
});

test("crabtalk start refuses a [system.crab] cwd that names no directory, naming the key", async () => {
  const other = tempHome();
  try {
    writeFileSync(join(other, "config.toml"), `${providerConfig("openai", fake, 'cwd = "~/missing"')}\n`);
    const r = await runCli(["start"], { home: other, env: { HOME: user } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `config.toml: system.crab.cwd: no directory at '${user}/missing' (fix ${join(other, "config.toml")}, then run crabtalk start again)`,
    );
  } finally {
    cleanup(other);
  }
});
