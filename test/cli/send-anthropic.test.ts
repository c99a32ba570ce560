// `crabtalk send` against a fake Anthropic Messages server (the real SDK runs):
// the scripted answer, --json in protocol order, resume, --new.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let env: LlmDaemon;
const cli = (args: string[]) => runCli(args, { home: env.daemon.home });
const files = () =>
  readdirSync(join(env.daemon.home, "sessions"))
    .filter((f) => f.startsWith("crab_user_"))
    .sort();

beforeAll(async () => {
  env = await startLlmDaemon("anthropic");
});
afterAll(async () => {
  await env.stop();
  cleanup(env.daemon.home);
});

test("send hello prints the scripted answer and exits 0", async () => {
  env.fake.script({ text: "Hello from Claude-shaped fake." });
  const r = await cli(["send", "hello"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Hello from Claude-shaped fake.\n");
  expect(env.fake.requests.at(-1)!.path).toEndWith("/v1/messages");
});

test("--json prints the events in protocol order", async () => {
  env.fake.script({ thinking: "hmm", text: "json answer" });
  const r = await cli(["send", "--json", "again"]);
  expect(r.code).toBe(0);
  const events = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const types = events.map((e) => e.type);
  expect(types[0]).toBe("start");
  expect(types.at(-1)).toBe("end");
  expect(types.indexOf("thinking")).toBeLessThan(types.indexOf("chunk"));
  expect(events.at(-1)).toMatchObject({ type: "end", error: "", provider: "fake", model: "fake-model" });
});

test("a second send resumes the same session file; --new starts the next seq", async () => {
  expect(files()).toHaveLength(1);
  await cli(["send", "third"]);
  expect(files()).toHaveLength(1);
  const r = await cli(["send", "--new", "fresh start"]);
  expect(r.code).toBe(0);
  expect(files().map((f) => f.split("_")[2].split(".")[0])).toEqual(["1", "2"]);
});
