// crabtalk logs: the last N lines, and -f following across a rotation.
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN, cleanup, tempHome } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { lastLines } from "../../src/cli/log-tail.ts";

const home = tempHome();
const log = join(home, "logs/daemon.log");
mkdirSync(join(home, "logs"));
afterAll(() => cleanup(home));

test("lastLines reads backwards across chunks and keeps whole lines", () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(i % 97)}`);
  writeFileSync(log, lines.join("\n") + "\n");
  expect(lastLines(log, 3)).toEqual(lines.slice(-3));
  expect(lastLines(log, 2000)).toEqual(lines.slice(-2000));
  expect(lastLines(log, 10_000)).toEqual(lines);
  expect(lastLines(log, 0)).toEqual([]);
  expect(lastLines(join(home, "nope.log"), 5)).toEqual([]);
});

test("logs -n N prints the last N lines; a bad -n is refused", async () => {
  writeFileSync(log, "a\nb\nc\nd\n");
  const r = await runCli(["logs", "-n", "2"], { home });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("c\nd\n");
  const bad = await runCli(["logs", "-n", "many"], { home });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("-n wants a whole number of lines, not 'many'");
});

test("logs -f follows new lines, and on through a rotation, until Ctrl-C", async () => {
  writeFileSync(log, "old\n");
  const proc = Bun.spawn([process.execPath, MAIN, "logs", "-f", "-n", "1"], {
    env: { ...process.env, CRABTALK_HOME: home },
    stdout: "pipe",
    stderr: "pipe",
  });
  const decoder = new TextDecoder();
  let seen = "";
  const reader = proc.stdout.getReader();
  const until = async (text: string) => {
    const deadline = Date.now() + 10_000;
    while (!seen.includes(text)) {
      const timeout = Bun.sleep(Math.max(0, deadline - Date.now())).then(() => "timeout" as const);
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout") throw new Error(`never saw ${JSON.stringify(text)} in ${JSON.stringify(seen)}`);
      const { value, done } = next;
      if (done) throw new Error(`logs -f ended; saw ${JSON.stringify(seen)}`);
      seen += decoder.decode(value);
    }
  };
  await until("old\n");
  appendFileSync(log, "first\n");
  await until("first\n");
  // Rotation as the daemon does it: the rest goes to the old file, then a new one starts.
  appendFileSync(log, "last of the old file\n");
  renameSync(log, `${log}.1`);
  writeFileSync(log, "new file\n");
  await until("new file\n");
  proc.kill("SIGINT");
  expect(await proc.exited).toBe(0);
  expect(seen).toBe("old\nfirst\nlast of the old file\nnew file\n");
}, 20_000);
