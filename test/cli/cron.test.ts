// `crabtalk cron` against a real daemon.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
  mkdirSync(join(s.daemon.home, "local/skills/standup"), { recursive: true });
  writeFileSync(join(s.daemon.home, "local/skills/standup/SKILL.md"), "---\nname: standup\ndescription: the daily standup\n---\nAsk what everyone did.\n");
});
afterAll(async () => {
  await s.stop();
});

test("cron add, list and delete", async () => {
  expect((await s.cli(["send", "--sender", "cron-cli", "hi"])).code).toBe(0);
  const session = JSON.parse((await s.cli(["sessions", "--json"])).stdout).find((x: { created_by: string }) => x.created_by === "cron-cli").id;
  const added = await s.cli(["cron", "add", "0 8 * * 1-5", "standup", "--session", String(session), "--quiet", "22:00-07:00"]);
  expect(added.code).toBe(0);
  expect(added.stdout).toMatch(/^cron 1 added: \/standup on '0 8 \* \* 1-5' into session \d+$/m);
  const list = await s.cli(["cron"]);
  expect(list.stdout).toMatch(/^1\s+0 8 \* \* 1-5\s+standup\s+\d+\s+22:00-07:00/m);
  expect((await s.cli(["cron", "add", "whenever", "x", "--session", String(session)])).stderr).toContain("invalid cron schedule 'whenever'");
  expect((await s.cli(["cron", "add", "* * * * *", "x", "--session", String(session), "--quiet", "late"])).stderr).toContain("--quiet takes HH:MM-HH:MM");
  expect((await s.cli(["cron", "delete", "1"])).stdout).toContain("cron 1 deleted");
  expect(JSON.parse((await runCli(["cron", "list", "--json"], { home: s.daemon.home })).stdout)).toEqual([]);
});
