// Model fallback (`fallback = [...]`): the primary model, on a Gemini fake,
// fails transiently on every request; the step moves to a model of another
// provider kind (an Anthropic fake), and StreamEnd names the one that answered.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { startFakeAnthropic } from "../support/fake-anthropic.ts";
import { startFakeGemini } from "../support/fake-gemini.ts";
import { cutGate, isTitleRequest, type FakeLLM, type ScriptedTurn } from "../support/fake-llm.ts";
import { providerTable } from "../support/llm-daemon.ts";

let primary: FakeLLM;
let backup: FakeLLM;
let daemon: TestDaemon;
let client: Client;

beforeAll(async () => {
  primary = await startFakeGemini();
  backup = await startFakeAnthropic();
  daemon = await startDaemon({
    config: `${providerTable("primary", "google", primary, ["gem-main"])}
max_retries = 1

${providerTable("backup", "anthropic", backup, ["claude-backup"])}

[system.crab]
model = "gem-main"
fallback = ["claude-backup"]
`,
  });
  client = await daemon.client();
});
afterAll(async () => {
  await client.close();
  await daemon.stop();
  await primary.stop();
  await backup.stop();
  cleanup(daemon.home);
});

const chats = (fake: FakeLLM) => fake.requests.filter((r) => !isTitleRequest(r.body));
let primaryBefore = 0;
let backupBefore = 0;
beforeEach(() => {
  primaryBefore = chats(primary).length;
  backupBefore = chats(backup).length;
});
const failing = (status: number, n: number): ScriptedTurn[] => Array.from({ length: n }, () => ({ error: { status, message: "unavailable" } }));

test("503 on every attempt: the run completes on the fallback model of another kind, and StreamEnd names it", async () => {
  primary.script(...failing(503, 2));
  backup.script({ text: "answered by the backup" });
  const r = await runCli(["send", "--json", "hello"], { home: daemon.home });
  expect(r.code).toBe(0);
  const events = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(
    events
      .filter((e) => e.type === "chunk")
      .map((e) => e.content)
      .join(""),
  ).toBe("answered by the backup");
  expect(events.at(-1)).toMatchObject({ type: "end", error: "", provider: "backup", model: "claude-backup" });
  // max_retries = 1: two attempts on the primary, then the backup.
  expect(chats(primary).length - primaryBefore).toBe(2);
  expect(chats(backup).length - backupBefore).toBe(1);
  const log = readFileSync(join(daemon.home, "logs", "daemon.log"), "utf8");
  expect(log).toContain("falling back to 'claude-backup' (provider 'backup')");
  expect(r.stderr).toContain("answered by fallback model 'claude-backup' (provider 'backup')");
});

test("plain send says on stderr, not in the answer, that a fallback answered", async () => {
  primary.script(...failing(429, 2));
  backup.script({ text: "backup again" });
  const r = await runCli(["send", "again"], { home: daemon.home });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("backup again\n");
  expect(r.stderr).toBe("crabtalk: answered by fallback model 'claude-backup' (provider 'backup'): the agent's own model failed\n");
});

test("SendResponse names the fallback too; a tool step and the step after it stay on the fallback", async () => {
  primary.script(...failing(503, 2));
  backup.script({ toolCalls: [{ id: "toolu_1", name: "bash", arguments: JSON.stringify({ command: "echo via-backup" }) }] }, { text: "done on backup" });
  const res = await client.send({ agent: "crab", content: "use a tool" });
  expect(res.content).toBe("done on backup");
  expect(res.provider).toBe("backup");
  expect(res.model).toBe("claude-backup");
  expect(chats(primary).length - primaryBefore).toBe(2);
  expect(chats(backup).length - backupBefore).toBe(2);
});

test("an error that is not transient (401) does not fall back", async () => {
  primary.script({ error: { status: 401, message: "bad key" } });
  const r = await runCli(["send", "--json", "no fallback"], { home: daemon.home });
  const end = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .at(-1);
  expect(end.error).toContain("provider 'primary' refused the API key");
  expect(end).toMatchObject({ provider: "primary", model: "gem-main" });
  expect(chats(backup).length - backupBefore).toBe(0);
});

test("a stream cut after output was streamed does not fall back", async () => {
  // Cut once send has printed a chunk, so the output surely came before the cut.
  const cut = cutGate();
  primary.script({ text: "partial answer that gets cut", cutAfterChunks: 2, cutWhen: cut.when });
  const r = await runCli(["send", "--json", "cut"], { home: daemon.home, onStdout: (soFar) => soFar.includes('"type":"chunk"') && cut.open() });
  const events = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(events.some((e) => e.type === "chunk")).toBe(true);
  expect(events.at(-1).error).toContain("provider 'primary'");
  expect(chats(backup).length - backupBefore).toBe(0);
});

test("the fallback list is in AgentInfo's config JSON and in `agents show`", async () => {
  const info = await client.getAgent("crab");
  expect(JSON.parse(info.config).fallback).toEqual(["claude-backup"]);
  const shown = await runCli(["agents", "show", "crab"], { home: daemon.home });
  expect(shown.stdout).toMatch(/fallback:\s+claude-backup/);
});

test("CreateAgent and UpdateAgent take fallback; a bad one is refused with 400", async () => {
  const created = await client.createAgent("resilient", JSON.stringify({ model: "gem-main", fallback: ["claude-backup"] }));
  expect(JSON.parse(created.config).fallback).toEqual(["claude-backup"]);
  const updated = await client.updateAgent("resilient", JSON.stringify({ model: "gem-main", fallback: [] }));
  expect(JSON.parse(updated.config).fallback).toEqual([]);
  await expect(client.updateAgent("resilient", JSON.stringify({ fallback: "claude-backup" }))).rejects.toThrow("fallback");
});
