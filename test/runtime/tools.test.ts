// Built-in tools end to end: a fake LLM scripts the calls, a real daemon runs
// them (docs/agent-loop.md#tool-dispatch, docs/tools.md, docs/agents.md#scope).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import type { StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";

let env: LlmDaemon;
let client: Client;
let work: string;

beforeAll(async () => {
  // Delegated runs write to a shared directory outside their working directory:
  // the sandbox would forbid it (test/security covers the sandbox).
  env = await startLlmDaemon("openai", { extraConfig: '\n[system.tasks]\nmax_concurrent = 1\ntask_timeout = 20\n\n[system.tools]\nsandbox = "off"\n' });
  client = await env.daemon.client();
  work = mkdtempSync(join(tmpdir(), "crabtalk-work-"));
});
afterAll(async () => {
  await client.close();
  await env.stop();
  cleanup(env.daemon.home);
  cleanup(work);
});

const bash = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: "bash",
  arguments: JSON.stringify({ command, ...extra }),
});

async function run(content: string, opts: { sender?: string; agent?: string; cwd?: string } = {}): Promise<StreamEvent["event"][]> {
  const out: StreamEvent["event"][] = [];
  for await (const e of client.stream({ agent: opts.agent ?? "crab", content, sender: opts.sender ?? "tools", cwd: opts.cwd ?? work })) out.push(e.event);
  return out;
}

const lastStreamBody = () => env.fake.requests.filter((r) => r.body?.stream === true).at(-1)!.body;

test("a bash call runs in the session's cwd; its output reaches the client and the model", async () => {
  env.fake.script({ toolCalls: [bash("b1", "pwd; echo hello-from-bash; exit 3")] }, { text: "done" });
  const events = await run("run it");
  const result = events.find((e) => e.case === "toolResult")!;
  if (result.case !== "toolResult") throw new Error("no tool result");
  expect(result.value.callId).toBe("b1");
  expect(result.value.isError).toBe(false); // a non-zero exit is still a normal answer
  const output = JSON.parse(result.value.output);
  expect(output).toEqual({ stdout: `${work}\nhello-from-bash\n`, stderr: "", exit_code: 3 });
  const toolMessage = lastStreamBody().messages.find((m: { role: string }) => m.role === "tool");
  expect(JSON.parse(toolMessage.content)).toEqual(output);
  expect(toolMessage.tool_call_id).toBe("b1");
  // The model is offered the built-in tools, sorted by name.
  expect(lastStreamBody().tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
    "ask_user",
    "bash",
    "delegate",
    "forget",
    "mcp",
    "memory",
    "recall",
    "remember",
    "skill",
  ]);
});

test("three calls in one step run concurrently and report in completion order", async () => {
  const dir = mkdtempSync(join(work, "par-"));
  const pids = mkdtempSync(join(work, "pids-"));
  // Each call marks its start. Instead of sleeps that a busy machine reorders,
  // mid ends only once fast is gone (reaped by the daemon) and slow only once
  // mid is: the completion order is fixed, and slow, listing the marks at its
  // end, can see all three only if the others ran while it was still running
  // (if they ran one after another, slow gives up after 20 s and sees itself).
  const after = (name: string) =>
    `for i in $(seq 2000); do [ -s ${pids}/${name} ] && ! kill -0 "$(cat ${pids}/${name})" 2>/dev/null && break; sleep 0.01; done`;
  env.fake.script(
    {
      toolCalls: [
        bash("slow", `touch ${dir}/slow; ${after("mid")}; ls ${dir}`),
        bash("fast", `echo $$ > ${pids}/fast; touch ${dir}/fast; echo fast`),
        bash("mid", `echo $$ > ${pids}/mid; touch ${dir}/mid; ${after("fast")}; echo mid`),
      ],
    },
    { text: "all done" },
  );
  const events = await run("parallel");
  const results = events.filter((e) => e.case === "toolResult").map((e) => (e.case === "toolResult" ? e.value : undefined)!);
  expect(results.map((r) => r.callId)).toEqual(["fast", "mid", "slow"]);
  expect(JSON.parse(results[2].output).stdout.split("\n").filter(Boolean).sort()).toEqual(["fast", "mid", "slow"]);
  const order = events.map((e) => e.case);
  expect(order.indexOf("toolsComplete")).toBeGreaterThan(order.lastIndexOf("toolResult"));
  // Results go back to the model in call order.
  const toolIds = lastStreamBody()
    .messages.filter((m: { role: string }) => m.role === "tool")
    .map((m: { tool_call_id: string }) => m.tool_call_id);
  expect(toolIds.slice(-3)).toEqual(["slow", "fast", "mid"]);
  // Each duration is that call's own.
  expect(Number(results[0].durationMs)).toBeLessThan(Number(results[2].durationMs));
});

test("a bash command that never ends is killed at its timeout with all its children", async () => {
  const marker = `crabtalk-orphan-${process.pid}-${Date.now()}`;
  env.fake.script(
    { toolCalls: [bash("t1", `(sleep 1000; echo ${marker}) & sh -c 'exec -a ${marker} sleep 1000' & wait`, { timeout: 1 })] },
    { text: "gave up" },
  );
  const events = await run("hang");
  const result = events.find((e) => e.case === "toolResult")!;
  if (result.case !== "toolResult") throw new Error("no result");
  expect(result.value.isError).toBe(true);
  expect(JSON.parse(result.value.output)).toEqual({ stdout: "", stderr: "bash timed out after 1 seconds", exit_code: -1 });
  const left = () =>
    Bun.spawnSync(["ps", "-eo", "pid,args"])
      .stdout.toString()
      .split("\n")
      .filter((l) => l.includes(marker) && !l.includes("ps -eo"));
  await until(() => left().length === 0, { what: "the timed-out command's processes to be gone" });
});

test("a process that leaves the command's group cannot hold the call open, at its end or at its timeout", async () => {
  const marker = `crabtalk-escaped-${process.pid}-${Date.now()}`;
  // setsid puts the sleeper in a session of its own, out of reach of the group kill; it keeps stdout open.
  const escaper = `setsid bash -c 'exec -a ${marker} sleep 1000' &`;
  env.fake.script(
    { toolCalls: [bash("e1", `${escaper} echo started`)] },
    { toolCalls: [bash("e2", `${escaper} sleep 1000`, { timeout: 1 })] },
    { text: "both back" },
  );
  const results = (await run("escape")).flatMap((e) => (e.case === "toolResult" ? [e.value] : []));
  const byId = Object.fromEntries(results.map((r) => [r.callId, r]));
  expect(JSON.parse(byId.e1.output)).toEqual({ stdout: "started\n", stderr: "", exit_code: 0 });
  expect(JSON.parse(byId.e2.output)).toEqual({ stdout: "", stderr: "bash timed out after 1 seconds", exit_code: -1 });
  Bun.spawnSync(["pkill", "-f", marker]);
});

test("bash output beyond the cap is cut and marked", async () => {
  env.fake.script({ toolCalls: [bash("big", "head -c 100000 /dev/zero | tr '\\0' a")] }, { text: "big" });
  const result = (await run("big output")).find((e) => e.case === "toolResult")!;
  if (result.case !== "toolResult") throw new Error("no result");
  const stdout: string = JSON.parse(result.value.output).stdout;
  expect(stdout.startsWith("a".repeat(65536))).toBe(true);
  expect(stdout.endsWith(`\n…[truncated ${100000 - 65536} bytes]`)).toBe(true);
});

test("invalid arguments and unknown tools are error results, nothing runs", async () => {
  env.fake.script(
    {
      toolCalls: [
        { id: "x1", name: "bash", arguments: '{"cmd": 1}' },
        { id: "x2", name: "teleport", arguments: "{}" },
        { id: "x3", name: "bash", arguments: "not json" },
      ],
    },
    { text: "ok then" },
  );
  const results = (await run("bad args")).filter((e) => e.case === "toolResult").map((e) => (e.case === "toolResult" ? e.value : undefined)!);
  const byId = Object.fromEntries(results.map((r) => [r.callId, r]));
  expect(byId.x1.isError).toBe(true);
  expect(byId.x1.output).toStartWith("invalid arguments: command:");
  expect(byId.x2).toMatchObject({ isError: true, output: "tool not available: teleport" });
  expect(byId.x3.output).toStartWith("invalid arguments: not JSON");
});

test("a remote sender may not use bash", async () => {
  const file = join(work, "remote-was-here");
  env.fake.script({ toolCalls: [bash("r1", `touch ${file}`)] }, { text: "refused" });
  const events = await run("try", { sender: "tg:12345" });
  const result = events.find((e) => e.case === "toolResult")!;
  expect(result.case === "toolResult" && result.value).toMatchObject({
    isError: true,
    output: "bash is only available in the command line interface",
  });
  expect(existsSync(file)).toBe(false);
});

test("a scoped agent's call outside its scope is refused and its side effect never happens", async () => {
  await client.createAgent("helper", JSON.stringify({ description: "helps" }));
  await client.createAgent("scoped", JSON.stringify({ skills: ["some-skill"] }));
  const file = join(work, "delegated-was-here");
  // `scoped` has a skill scope and no members: delegate is outside its whitelist.
  env.fake.script(
    { toolCalls: [{ id: "d1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "helper", message: "touch it" }] }) }] },
    { text: "ok" },
  );
  env.fake.script({ toolCalls: [bash("h1", `touch ${file}`)] }, { text: "helper done" });
  const events = await run("delegate please", { agent: "scoped" });
  const result = events.find((e) => e.case === "toolResult")!;
  expect(result.case === "toolResult" && result.value).toMatchObject({ isError: true, output: "tool not available: delegate" });
  expect(existsSync(file)).toBe(false);
  // The scope block tells it its limits, and only whitelisted tools are offered.
  const body = env.fake.requests.filter((r) => r.body?.stream === true).find((r) => JSON.stringify(r.body.messages).includes("delegate please"))!.body;
  expect(body.messages[0].content).toContain("<scope>\nskills: some-skill\n</scope>");
  expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
    "ask_user",
    "bash",
    "forget",
    "memory",
    "recall",
    "remember",
    "skill",
  ]);
  // The helper's turns were never used: take them back off the script.
  env.fake.script();
  await client.send({ agent: "crab", content: "drain", sender: "drain" }).catch(() => {});
  expect(existsSync(file)).toBe(true); // ...and crab, which may use bash, did run that touch
  await client.send({ agent: "crab", content: "drain", sender: "drain" });
});

test("delegation to a member returns its answer; a non-member is refused and never runs", async () => {
  await client.createAgent("boss", JSON.stringify({ members: ["helper", "ghost"] }));
  await client.createAgent("outsider", "{}");
  const file = join(work, "outsider-was-here");
  env.fake.script(
    { toolCalls: [{ id: "n1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "outsider", message: `touch ${file}` }] }) }] },
    { text: "refused" },
  );
  let events = await run("use the outsider", { agent: "boss" });
  let result = events.find((e) => e.case === "toolResult")!;
  expect(result.case === "toolResult" && result.value).toMatchObject({ isError: true, output: "agent 'outsider' is not in your members list" });
  expect(existsSync(file)).toBe(false);

  env.fake.script(
    {
      toolCalls: [
        {
          id: "m1",
          name: "delegate",
          arguments: JSON.stringify({
            tasks: [
              { agent: "helper", message: "say hi" },
              { agent: "ghost", message: "boo" },
            ],
          }),
        },
      ],
    },
    { text: "helper says hi" },
    { text: "summary" },
  );
  events = await run("use the helper", { agent: "boss" });
  result = events.find((e) => e.case === "toolResult")!;
  if (result.case !== "toolResult") throw new Error("no result");
  expect(result.value.output).toStartWith("[");
  expect(result.value.isError).toBe(false);
  expect(JSON.parse(result.value.output)).toEqual([
    { agent: "helper", result: "helper says hi", error: null },
    { agent: "ghost", result: null, error: "agent 'ghost' not registered" },
  ]);
  // The member ran in its own session with the delegate identity; that session is closed afterwards.
  expect(readdirSync(join(env.daemon.home, "sessions")).some((f) => f.startsWith("helper_delegate_"))).toBe(true);
  expect((await client.sessions()).some((s) => s.createdBy === "delegate")).toBe(false);
});

test("delegated tasks respect max_concurrent (1 here): they never overlap", async () => {
  const lock = join(work, "task-lock");
  const task = (i: number) => ({ agent: "helper", message: `task ${i}` });
  const guarded = (id: string) => bash(id, `mkdir ${lock} || echo OVERLAP; sleep 0.2; rmdir ${lock}`);
  env.fake.script(
    { toolCalls: [{ id: "p1", name: "delegate", arguments: JSON.stringify({ tasks: [task(1), task(2)] }) }] },
    { toolCalls: [guarded("g1")] },
    { text: "first finished" },
    { toolCalls: [guarded("g2")] },
    { text: "second finished" },
    { text: "both done" },
  );
  const events = await run("two tasks", { agent: "boss" });
  const result = events.find((e) => e.case === "toolResult")!;
  if (result.case !== "toolResult") throw new Error("no result");
  const parsed = JSON.parse(result.value.output) as { result: string }[];
  expect(parsed.map((p) => p.result).sort()).toEqual(["first finished", "second finished"]);
  const helperFiles = readdirSync(join(env.daemon.home, "sessions")).filter((f) => f.startsWith("helper_delegate_"));
  const toolOutputs = helperFiles
    .flatMap((f) =>
      readFileSync(join(env.daemon.home, "sessions", f), "utf8")
        .trim()
        .split("\n"),
    )
    .map((l) => JSON.parse(l))
    .filter((l) => l.role === "tool")
    .map((l) => JSON.parse(l.content));
  expect(toolOutputs).toHaveLength(2);
  expect(toolOutputs).toEqual([
    { stdout: "", stderr: "", exit_code: 0 },
    { stdout: "", stderr: "", exit_code: 0 },
  ]);
});
