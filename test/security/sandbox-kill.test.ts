// A Kill reaches every process of a sandboxed call, however early it comes
// (docs/tools.md#bash, docs/security.md#tool-sandbox): the sandbox's first
// process stays in the call's process group, so the group kill takes it and
// its pid namespace with it; only the command itself gets a session of its own.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBash } from "../../src/runtime/tools/bash.ts";
import { cleanup } from "../support/daemon.ts";
import { until } from "../support/until.ts";

const bwrap = Bun.which("bwrap");
if (!bwrap) throw new Error("these tests need bubblewrap (apt-get install bubblewrap)");
const sandbox = { kind: "bwrap" as const, command: bwrap, spec: { writable: [], hidden: [], network: true } };

/** Parent pid, process group and session of a host process. */
function stat(pid: number): { ppid: number; pgid: number; sid: number } {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const [ppid, pgid, sid] = text
    .slice(text.lastIndexOf(")") + 2)
    .split(" ")
    .slice(1, 4)
    .map(Number);
  return { ppid, pgid, sid };
}
/** Host processes whose command line starts with `marker` (the command renamed by exec -a). */
function pidsOf(marker: string): number[] {
  return Bun.spawnSync(["pgrep", "-f", `^${marker}`])
    .stdout.toString()
    .split("\n")
    .filter(Boolean)
    .map(Number);
}

test("the sandbox's first process stays in the call's group; the command alone leads a new session; a Kill ends them all", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-kill-"));
  const marker = `crabtalk-sandboxed-${process.pid}-${Date.now()}`;
  const stop = new AbortController();
  const call = runBash(`exec -a ${marker} sleep 1000`, { cwd: dir, env: {}, timeoutSecs: 60, signal: stop.signal, sandbox });
  await until(() => pidsOf(marker).length === 1, { what: "the sandboxed command to start" });
  const command = pidsOf(marker)[0];
  const first = stat(command).ppid; // the sandbox's first process (pid 1 of its namespace)
  const outer = stat(first).ppid; // bwrap, the process the call started
  expect(stat(command).sid).toBe(command); // the command leads its own session: no terminal of the daemon's
  expect(stat(first).pgid).toBe(stat(outer).pgid); // the first process never left the call's group
  expect(stat(outer).pgid).toBe(outer);
  stop.abort(new Error("session 1 was killed"));
  const outcome = await call;
  expect(JSON.parse(outcome.output)).toMatchObject({ stderr: "bash cancelled: session 1 was killed", exit_code: -1 });
  await until(() => pidsOf(marker).length === 0, { what: "the sandboxed command to be gone" });
  cleanup(dir);
});

test("Kills at random moments of the sandbox's start-up leave nothing running", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-kill-"));
  const marker = `crabtalk-startup-${process.pid}-${Date.now()}`;
  for (let i = 0; i < 40; i++) {
    const stop = new AbortController();
    const call = runBash(`exec -a ${marker} sleep 1000`, { cwd: dir, env: {}, timeoutSecs: 60, signal: stop.signal, sandbox });
    setTimeout(() => stop.abort(new Error("killed")), i % 20);
    expect(JSON.parse((await call).output).exit_code).toBe(-1);
  }
  await until(() => pidsOf(marker).length === 0, { what: "every sandboxed command to be gone" });
  cleanup(dir);
});
