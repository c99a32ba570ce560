// A reader that goes away (`crabtalk send --json hi | head -1`): the command
// ends quietly, without an EPIPE error, on the fast path and the full CLI.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, MAIN } from "../support/daemon.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

/**
 * Runs `crabtalk <args> | head -1` through a named pipe, so the test knows
 * when head has read its line and gone: `afterHead` runs then, and the
 * command's later writes find no reader. Returns the command's exit status,
 * its stderr and what head printed.
 */
async function pipedToHead(
  args: string[],
  afterHead: () => Promise<unknown> | void,
  meanwhile?: () => Promise<unknown>,
): Promise<{ rc: number; stderr: string; first: string }> {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-head-"));
  const script = `mkfifo "$D/fifo"
("$@" > "$D/fifo" 2> "$D/stderr"; echo $? > "$D/rc") &
head -1 < "$D/fifo" > "$D/first"
touch "$D/head-done"
wait`;
  const proc = Bun.spawn(["bash", "-c", script, "bash", process.execPath, MAIN, ...args], {
    env: { ...process.env, D: dir, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1" },
    stdin: "ignore",
  });
  try {
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(dir, "head-done"))) {
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error("head never read its line");
      await (meanwhile ? meanwhile() : Bun.sleep(20));
    }
    await afterHead();
    expect(await proc.exited).toBe(0);
    const read = (name: string) => readFileSync(join(dir, name), "utf8");
    return { rc: Number(read("rc").trim()), stderr: read("stderr"), first: read("first") };
  } finally {
    proc.kill();
    cleanup(dir);
  }
}

test("send --json | head -1: the rest of the answer finds no reader, and send ends quietly", async () => {
  const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
  s.fake.script({ text: words, holdAfterChunks: 3 });
  const r = await pipedToHead(["send", "--json", "--sender", "head", "hi"], () => s.fake.release());
  expect(JSON.parse(r.first)).toMatchObject({ type: "start" });
  expect(r.stderr).toBe("");
  expect([0, 141]).toContain(r.rc);
});

test("a full-CLI command (events) whose reader went away ends quietly at its next write", async () => {
  // Answers until events is listening give head its line; the one after finds no reader.
  const answer = async () => expect((await s.cli(["send", "--sender", "events-head", "hi"])).code).toBe(0);
  const r = await pipedToHead(["events", "--json"], answer, answer);
  expect(r.first).toContain('"agent":"crab"');
  expect(r.stderr).toBe("");
  expect([0, 141]).toContain(r.rc);
});
