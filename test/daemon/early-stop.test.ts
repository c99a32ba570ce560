// A SIGTERM that arrives while the daemon is still starting (its socket just
// bound, crons and components not yet started) stops it cleanly: exit 0 and
// no run files left, as a stop after start-up does (docs/home.md#shutdown).
import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MAIN, cleanup, tempHome } from "../support/daemon.ts";
import { until } from "../support/until.ts";

const home = tempHome();
afterAll(() => cleanup(home));

test("SIGTERM as soon as the socket exists: a clean exit, run files removed", async () => {
  const proc = Bun.spawn([process.execPath, MAIN, "daemon"], {
    env: { ...process.env, CRABTALK_HOME: home, CRABTALK_LOG_STDERR: "0" },
    stdout: "ignore",
    stderr: "ignore",
  });
  await until(() => existsSync(join(home, "run/crabtalk.sock")), { what: "the daemon's socket", timeoutMs: 20_000, intervalMs: 1 });
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  expect(existsSync(join(home, "run/crabtalk.sock"))).toBe(false);
  expect(existsSync(join(home, "run/crabtalk.pid"))).toBe(false);
});
