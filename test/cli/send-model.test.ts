// `crabtalk send --model M`: one run answered by another model, through the
// fast path and the full command; the agent's model stays; an unknown model
// is refused before anything is written.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
const cli = (args: string[]) => runCli(args, { home: daemon.home });
const chatModels = () => fake.requests.filter((r) => !isTitleRequest(r.body)).map((r) => r.body.model as string);
const sessionFiles = () => readdirSync(join(daemon.home, "sessions")).filter((f) => f.endsWith(".jsonl"));

beforeAll(async () => {
  fake = await startFakeOpenAI();
  daemon = await startDaemon({
    config: `[provider.fake]\napi_key = "test-key"\nbase_url = "${fake.url}"\nmodels = ["fake-model", "other-model"]\n\n[system.crab]\nmodel = "fake-model"\n`,
  });
});
afterAll(async () => {
  await daemon.stop();
  await fake.stop();
  cleanup(daemon.home);
});

test("--model answers this run with that model; the next run and the agent keep theirs", async () => {
  // A pipe takes the fast path; `--tcp` after the command sends it to the full command.
  for (const args of [
    ["send", "--model", "other-model", "hi"],
    ["send", "-m", "other-model", "--tcp", "hi again"],
  ]) {
    const before = chatModels().length;
    const r = await cli(args);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(chatModels().slice(before)).toEqual(["other-model"]);
  }
  const json = await cli(["send", "--json", "--model", "other-model", "which model?"]);
  expect(JSON.parse(json.stdout.trim().split("\n").at(-1)!)).toMatchObject({ type: "end", model: "other-model" });
  const before = chatModels().length;
  expect((await cli(["send", "and now?"])).code).toBe(0);
  expect(chatModels().slice(before)).toEqual(["fake-model"]);
  expect(JSON.parse((await cli(["stats", "--json"])).stdout).active_model).toBe("fake-model");
});

test("an unknown model is refused with the known ones, and nothing is sent or written", async () => {
  const files = sessionFiles();
  const requests = fake.requests.length;
  for (const args of [
    ["send", "--model", "nope", "--new", "hello"],
    ["send", "--model", "nope", "--tcp", "--new", "hello"],
  ]) {
    const r = await cli(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown model 'nope'; known: fake-model, other-model");
  }
  expect(fake.requests.length).toBe(requests);
  expect(sessionFiles()).toEqual(files);
});
