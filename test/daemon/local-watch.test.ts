// Agent prompt files and skills written on disk take effect without a reload,
// and the daemon log says what changed.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeSetup, type FakeSetup } from "../cli/fake-setup.ts";
import { until as untilHolds } from "../support/until.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

const log = () => readFileSync(join(s.daemon.home, "logs/daemon.log"), "utf8");

/** Waits until `check` holds (the watcher applies changes in the background), for 10 s of wall time however slow each check is. */
const until = (what: string, check: () => boolean | Promise<boolean>) => untilHolds(check, { what, timeoutMs: 10_000 });

// The first write comes as soon as the daemon answers: the watch is in place before any client is served.
test("a new prompt file registers its agent, and an edit changes its prompt, without crabtalk reload", async () => {
  writeFileSync(join(s.daemon.home, "local/agents/watcher.md"), "You watch files.");
  await until("the agent registers", async () => (await s.cli(["agents", "list"])).stdout.includes("watcher"));
  expect(log()).toMatch(/local files changed; reloaded changed=agents\/watcher\.md/);

  writeFileSync(join(s.daemon.home, "local/agents/watcher.md"), "You watch files very closely.");
  await until("the edit is applied", () => log().split("agents/watcher.md").length > 2);
  expect((await s.cli(["send", "--agent", "watcher", "anything new?"])).code).toBe(0);
  expect(s.lastChatBody()).toContain("You watch files very closely.");
});

test("a new skill is offered to agents without crabtalk reload", async () => {
  mkdirSync(join(s.daemon.home, "local/skills/wave"), { recursive: true });
  writeFileSync(join(s.daemon.home, "local/skills/wave/SKILL.md"), "---\nname: wave\ndescription: waves hello\n---\nWave.\n");
  await until("the skill change is applied", () => log().includes("skills/wave"));
  expect((await s.cli(["send", "--sender", "skills", "hi"])).code).toBe(0);
  expect(s.lastChatBody()).toContain("- wave: waves hello");
});

test("a broken manifest makes the watcher's reload fail with a warning; the daemon keeps serving", async () => {
  writeFileSync(join(s.daemon.home, "local/CrabTalk.toml"), "[agents.x\n");
  writeFileSync(join(s.daemon.home, "local/agents/another.md"), "Another.");
  await until("the failure is logged", () => log().includes("local files changed but reload failed"));
  expect((await s.cli(["agents", "list"])).stdout).toContain("watcher");
  writeFileSync(join(s.daemon.home, "local/CrabTalk.toml"), "");
});
