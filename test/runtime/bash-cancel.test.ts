// A bash call whose run was already stopped runs nothing (docs/tools.md#bash).
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBash } from "../../src/runtime/tools/bash.ts";
import { cleanup } from "../support/daemon.ts";

test("a call whose signal is already aborted (a Kill before it started) runs nothing and says why", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-bash-"));
  const stop = new AbortController();
  stop.abort(new Error("session 7 was killed"));
  const outcome = await runBash("touch ran", { cwd: dir, env: {}, timeoutSecs: 5, signal: stop.signal });
  expect(outcome).toEqual({ output: JSON.stringify({ stdout: "", stderr: "bash cancelled: session 7 was killed", exit_code: -1 }), isError: true });
  expect(existsSync(join(dir, "ran"))).toBe(false);
  cleanup(dir);
});
