// `crabtalk agents` through the real CLI and daemon: delete removes an agent
// from every place that defines it, or refuses and says why.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let s: FakeSetup;
const at = (...p: string[]) => join(s.daemon.home, ...p);
const names = async () =>
  (await s.cli(["agents", "list"])).stdout
    .split("\n")
    .slice(1)
    .map((l) => l.split(/\s+/)[0])
    .filter(Boolean);

beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

test("agents delete removes the manifest entry and the prompt file: the agent is gone", async () => {
  writeFileSync(at("local/CrabTalk.toml"), '# my agents\n[agents.keeper]\ndescription = "stays"\n');
  writeFileSync(at("local/agents/keeper.md"), "keep me");
  await s.cli(["reload"]);
  expect((await s.cli(["agents", "create", "reviewer", "--description", "reviews"])).code).toBe(0);
  writeFileSync(at("local/agents/reviewer.md"), "You review.");
  expect(await names()).toEqual(["crab", "keeper", "reviewer"]);

  const r = await s.cli(["agents", "delete", "reviewer"]);
  expect(r).toMatchObject({ code: 0, stdout: "deleted agent reviewer\n" });
  expect(await names()).toEqual(["crab", "keeper"]);
  expect(existsSync(at("local/agents/reviewer.md"))).toBe(false);
  const manifest = readFileSync(at("local/CrabTalk.toml"), "utf8");
  expect(manifest).not.toContain("reviewer");
  expect(manifest).toContain("# my agents");
  const send = await s.cli(["send", "--agent", "reviewer", "hi"]);
  expect(send.code).not.toBe(0);
  expect(send.stderr).toContain("reviewer");
  const again = await s.cli(["agents", "delete", "reviewer"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("agent 'reviewer' not found");
});

test("an agent that is only a prompt file, or only in config.toml, is deleted too", async () => {
  writeFileSync(at("local/agents/loose.md"), "only a file");
  const config = readFileSync(at("config.toml"), "utf8");
  writeFileSync(at("config.toml"), `${config}\n# an old-style agent\n[agents.legacy]\ndescription = "from config"\n`);
  writeFileSync(at("local/agents/legacy.md"), "legacy prompt");
  await s.cli(["reload"]);
  expect(await names()).toEqual(["crab", "keeper", "legacy", "loose"]);
  expect((await s.cli(["agents", "show", "legacy"])).stdout).toContain("from config");

  expect((await s.cli(["agents", "delete", "loose"])).code).toBe(0);
  expect((await s.cli(["agents", "delete", "legacy"])).code).toBe(0);
  expect(await names()).toEqual(["crab", "keeper"]);
  const after = readFileSync(at("config.toml"), "utf8");
  expect(after).not.toContain("legacy");
  expect(after).toStartWith(config.trimEnd());
});

test("config.toml [agents.x] clashing with the manifest is reported in the daemon log, not silently dropped", async () => {
  const config = readFileSync(at("config.toml"), "utf8");
  writeFileSync(at("config.toml"), `${config}\n[agents.keeper]\ndescription = "shadowed"\n`);
  await s.cli(["reload"]);
  expect((await s.cli(["agents", "show", "keeper"])).stdout).toContain("stays");
  const log = readFileSync(at("logs/daemon.log"), "utf8");
  expect(log).toContain("config.toml [agents.keeper] is ignored: local/CrabTalk.toml defines agent 'keeper' too");
  writeFileSync(at("config.toml"), config);
  await s.cli(["reload"]);
});

test("agents delete refuses crab and path tricks, and changes nothing", async () => {
  const crab = await s.cli(["agents", "delete", "crab"]);
  expect(crab.code).toBe(1);
  expect(crab.stderr).toContain("'crab' is the default agent and cannot be deleted");
  writeFileSync(join(s.daemon.home, "outside.md"), "not an agent");
  for (const name of ["../outside", "..", "a/b", "/etc/passwd"]) {
    const r = await s.cli(["agents", "delete", name]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid agent name|not found/);
  }
  expect(existsSync(join(s.daemon.home, "outside.md"))).toBe(true);
  expect(await names()).toEqual(["crab", "keeper"]);
});

test("agents create --prompt and update --prompt-file set the system prompt the model sees; update without them keeps it", async () => {
  const created = await s.cli(["agents", "create", "poet", "--description", "writes verse", "--prompt", "You answer only in haiku."]);
  expect(created).toMatchObject({ code: 0, stdout: "created agent poet\n" });
  expect(readFileSync(at("local/agents/poet.md"), "utf8")).toBe("You answer only in haiku.");
  expect((await s.cli(["send", "--agent", "poet", "--new", "hi"])).code).toBe(0);
  expect(s.lastChatBody()).toContain("You answer only in haiku.");

  const file = at("poet-prompt.md");
  writeFileSync(file, "You answer in limericks.\nAlways five lines.\n");
  expect((await s.cli(["agents", "update", "poet", "--prompt-file", file])).code).toBe(0);
  expect((await s.cli(["agents", "update", "poet", "--description", "writes limericks"])).code).toBe(0);
  expect(readFileSync(at("local/agents/poet.md"), "utf8")).toBe("You answer in limericks.\nAlways five lines.\n");
  expect((await s.cli(["agents", "show", "poet"])).stdout).toContain("writes limericks");
  expect((await s.cli(["send", "--agent", "poet", "--new", "hi"])).code).toBe(0);
  expect(s.lastChatBody()).toContain("You answer in limericks.\\nAlways five lines.");
  expect(s.lastChatBody()).not.toContain("haiku");

  const piped = await s.cli(["agents", "update", "poet", "--prompt-file", "-"], "From standard input.");
  expect(piped.code).toBe(0);
  expect(readFileSync(at("local/agents/poet.md"), "utf8")).toBe("From standard input.");
});

test("agents create with both --prompt and --prompt-file, or a missing prompt file, is refused and creates nothing", async () => {
  const both = await s.cli(["agents", "create", "twice", "--prompt", "a", "--prompt-file", at("nothing.md")]);
  expect(both.code).toBe(1);
  expect(both.stderr).toBe("crabtalk: give --prompt or --prompt-file, not both\n");
  const missing = await s.cli(["agents", "create", "lost", "--prompt-file", at("nothing.md")]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(`cannot read the prompt file ${at("nothing.md")}: no such file`);
  expect(await names()).not.toContain("twice");
  expect(await names()).not.toContain("lost");
  expect(existsSync(at("local/agents/lost.md"))).toBe(false);
});
