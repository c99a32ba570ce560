// Agent management (docs/protocol.md#agents, docs/agents.md) and agent behaviour that
// depends on config: prompts, max_iterations, provider detection.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonError } from "../support/daemon-error.ts";
import { cleanup, startDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const t = useLlmDaemon("openai");

test("the default agent crab is registered with the active model", async () => {
  const agents = await t.client.listAgents();
  expect(agents.map((a) => a.name)).toContain("crab");
  const crab = await t.client.getAgent("crab");
  expect(crab).toMatchObject({ name: "crab", model: "fake-model", maxIterations: 16, thinking: false });
  expect(JSON.parse(crab.config)).toEqual({
    description: "",
    model: "fake-model",
    max_iterations: 16,
    thinking: false,
    members: [],
    skills: [],
    mcps: [],
    fallback: [],
    compact_tool_max_len: 1024,
    run_timeout: 1800,
    approve: [],
  });
  // No compact_threshold: 80 % of the window of fake-model (unknown family: 8192).
  expect(crab.compactThreshold).toBe(6553);
  expect((await daemonError(t.client.getAgent("ghost"))).code).toBe(404);
});

test("CreateAgent writes the manifest, creates a prompt file and registers the agent without a restart", async () => {
  const info = await t.client.createAgent("reviewer", JSON.stringify({ description: "reviews code", max_iterations: 3, compact_threshold: null }));
  expect(info).toMatchObject({ name: "reviewer", description: "reviews code", maxIterations: 3 });
  expect(info.model).toBeUndefined();
  expect(info.compactThreshold).toBeUndefined();
  expect(readFileSync(join(t.env.daemon.home, "local/CrabTalk.toml"), "utf8")).toContain("[agents.reviewer]");
  expect(existsSync(join(t.env.daemon.home, "local/agents/reviewer.md"))).toBe(true);
  expect((await t.client.listAgents()).map((a) => a.name)).toEqual(["crab", "reviewer"]);
  expect((await t.client.getStats()).registeredAgents).toBe(2);
});

test("an agent runs with its prompt file as its system prompt", async () => {
  writeFileSync(join(t.env.daemon.home, "local/agents/reviewer.md"), "You are a meticulous code reviewer.");
  await t.client.reload();
  t.env.fake.script({ text: "LGTM" });
  const r = await t.client.send({ agent: "reviewer", content: "review this" });
  expect(r.content).toBe("LGTM");
  const body = t.env.fake.requests.filter((q) => q.body?.stream === true).at(-1)!.body;
  expect(body.messages[0].role).toBe("system");
  expect(body.messages[0].content).toStartWith("You are a meticulous code reviewer.");
  expect(body.messages[0].content).toContain("<environment>\nos: linux\n</environment>");
  expect(readdirSync(join(t.env.daemon.home, "sessions")).some((f) => f.startsWith("reviewer_user_1"))).toBe(true);
});

test("UpdateAgent replaces the entry; DeleteAgent removes it and its prompt file", async () => {
  const updated = await t.client.updateAgent("reviewer", JSON.stringify({ description: "strict", thinking: true }));
  expect(updated).toMatchObject({ description: "strict", thinking: true, maxIterations: 16 });
  await t.client.deleteAgent("reviewer");
  expect(readFileSync(join(t.env.daemon.home, "local/CrabTalk.toml"), "utf8")).not.toContain("reviewer");
  expect(existsSync(join(t.env.daemon.home, "local/agents/reviewer.md"))).toBe(false);
  expect((await daemonError(t.client.getAgent("reviewer"))).code).toBe(404);
  const gone = await daemonError(t.client.deleteAgent("reviewer"));
  expect(gone).toMatchObject({ code: 404, message: "agent 'reviewer' not found" });
});

test("bad agent names and configs are refused with 400 and change nothing", async () => {
  const manifest = () =>
    existsSync(join(t.env.daemon.home, "local/CrabTalk.toml")) ? readFileSync(join(t.env.daemon.home, "local/CrabTalk.toml"), "utf8") : "";
  const before = manifest();
  for (const name of ["", "../evil", "a/b", "with space", "under_score", "crab", "x".repeat(65), "/abs"]) {
    expect((await daemonError(t.client.createAgent(name, "{}"))).code).toBe(400);
  }
  expect((await daemonError(t.client.createAgent("okname", "{nope"))).code).toBe(400);
  expect((await daemonError(t.client.createAgent("okname", JSON.stringify({ max_iterations: "many" })))).code).toBe(400);
  expect(manifest()).toBe(before);
  expect(existsSync(join(t.env.daemon.home, "local/agents/okname.md"))).toBe(false);
  await t.client.createAgent("okname", "{}");
  expect((await daemonError(t.client.createAgent("okname", "{}"))).code).toBe(400);
  expect((await daemonError(t.client.updateAgent("crab", "{}"))).code).toBe(404);
  await t.client.deleteAgent("okname");
});

test("an agent with thinking on asks the provider for reasoning", async () => {
  await t.client.createAgent("thinker", JSON.stringify({ thinking: true }));
  await t.client.send({ agent: "thinker", content: "ponder" });
  const body = t.env.fake.requests.filter((q) => q.body?.stream === true).at(-1)!.body;
  expect(body.reasoning_effort).toBe("high");
  await t.client.send({ agent: "crab", content: "no pondering" });
  expect(t.env.fake.requests.filter((q) => q.body?.stream === true).at(-1)!.body.reasoning_effort).toBeUndefined();
  await t.client.deleteAgent("thinker");
});

test("a run that calls tools every round stops at max_iterations without an error", async () => {
  await t.client.createAgent("looper", JSON.stringify({ max_iterations: 2 }));
  const call = (i: number) => ({ toolCalls: [{ id: `loop${i}`, name: "nothing_here", arguments: "{}" }] });
  t.env.fake.script(call(1), call(2));
  const kinds: string[] = [];
  let end: { error: string } | undefined;
  for await (const e of t.client.stream({ agent: "looper", content: "go" })) {
    kinds.push(e.event.case ?? "");
    if (e.event.case === "end") end = e.event.value;
    if (e.event.case === "toolResult") {
      expect(e.event.value.isError).toBe(true);
      expect(e.event.value.output).toBe("tool not available: nothing_here");
    }
  }
  expect(end?.error).toBe("");
  expect(kinds.filter((k) => k === "toolsComplete")).toHaveLength(2);
  // Early names-only tool_start, then the full one, result, complete: per step.
  expect(kinds.slice(1, 5)).toEqual(["toolStart", "toolStart", "toolResult", "toolsComplete"]);
  await t.client.deleteAgent("looper");
});

test("with no provider configured the daemon runs, and every run fails naming the ways to configure one", async () => {
  const daemon = await startDaemon({
    env: { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", CRABTALK_OLLAMA_URL: "http://127.0.0.1:9" },
  });
  const c = await daemon.client();
  try {
    const e = await daemonError(c.send({ agent: "crab", content: "hi" }));
    expect(e.code).toBe(500);
    for (const hint of ["crabtalk setup", "[provider.", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "Ollama"]) expect(e.message).toContain(hint);
    await c.ping();
  } finally {
    await c.close();
    await daemon.stop();
    cleanup(daemon.home);
  }
});

test("OPENAI_API_KEY in the environment is detected when no provider is configured", async () => {
  const fake = await startFakeOpenAI();
  fake.script({ text: "detected!" });
  const daemon = await startDaemon({
    env: { OPENAI_API_KEY: "sk-env-detected", OPENAI_BASE_URL: fake.url, OPENAI_MODEL: "env-model", ANTHROPIC_API_KEY: "" },
  });
  const c = await daemon.client();
  try {
    const r = await c.send({ agent: "crab", content: "hi" });
    expect(r.content).toBe("detected!");
    expect(r.model).toBe("env-model");
    expect((await c.getStats()).activeModel).toBe("env-model"); // the detected model is the active one
    expect(fake.requests[0].headers.authorization).toBe("Bearer sk-env-detected");
  } finally {
    await c.close();
    await daemon.stop();
    await fake.stop();
    cleanup(daemon.home);
  }
});
