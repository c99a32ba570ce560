// The raw client of docs/protocol.md, run as printed against a real daemon:
// the worked example stays true.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "../support/cli.ts";
import { REPO } from "../support/daemon.ts";
import { startFakeSetup, type FakeSetup } from "../cli/fake-setup.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let s: FakeSetup;
let script: string;

beforeAll(async () => {
  s = await startFakeSetup();
  const code = /```python\n([\s\S]*?)```/.exec(readFileSync(join(REPO, "docs/protocol.md"), "utf8"))?.[1];
  if (!code) throw new Error("docs/protocol.md has no python example");
  script = join(s.daemon.home, "ask.py");
  writeFileSync(script, code);
});
afterAll(() => s.stop());

const ask = (...words: string[]) => runCommand(["python3", script, ...words], { env: { PATH: process.env.PATH, CRABTALK_HOME: s.daemon.home } });

test("the documented raw client streams an answer", async () => {
  s.fake.script({ text: "Four, as always." });
  const r = await ask("what", "is", "2+2");
  expect(r.stderr).toMatch(/^\[session \d+\]\n$/);
  expect(r.stdout).toBe("Four, as always.\n");
  expect(r.code).toBe(0);
  expect(s.lastUserMessage()).toBe("what is 2+2");
});

test("the documented raw client reports an error frame", async () => {
  const r = await runCommand(["python3", "-c", readFileSync(script, "utf8").replace('field(1, b"crab")', 'field(1, b"nobody")'), "hi"], {
    env: { PATH: process.env.PATH, CRABTALK_HOME: s.daemon.home },
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("error 404: agent 'nobody'");
});
