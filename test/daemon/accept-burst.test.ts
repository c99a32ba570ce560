// A burst of clients while the daemon's event loop is busy: the kernel refuses
// Unix connects at once past the listen backlog (512), so a client library
// that gave up on the first refusal would fail where the daemon is fine. The
// daemon is stopped (SIGSTOP) to hold its loop, 700 clients connect, and once
// it runs again every one of them gets its Pong.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "../../src/protocol/client.ts";
import { connect } from "../../src/transport/connect.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startDaemon();
});
afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
});

test("700 clients connecting while the daemon's loop is held all connect and get a Pong", async () => {
  const clients: Client[] = [];
  daemon.proc.kill("SIGSTOP");
  let resumed = false;
  try {
    const attempts = Array.from({ length: 700 }, async () => {
      const c = new Client(await connect({ unix: daemon.socket }));
      clients.push(c);
      await c.ping();
    });
    // Past the backlog the kernel refuses at once: wait until the first refusals must have happened.
    await Bun.sleep(200);
    daemon.proc.kill("SIGCONT");
    resumed = true;
    const results = await Promise.allSettled(attempts);
    const failed = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(failed.map((f) => String(f.reason))).toEqual([]);
    expect(clients.length).toBe(700);
  } finally {
    if (!resumed) daemon.proc.kill("SIGCONT");
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}, 30_000);

test("a socket with no daemon behind it is still refused, after a bounded wait", async () => {
  const home = tempHome();
  const path = join(home, "stale.sock");
  // What a killed daemon leaves: a socket file nobody listens on.
  Bun.spawnSync([process.execPath, "-e", `Bun.listen({unix:${JSON.stringify(path)},socket:{data(){}}}); process.kill(process.pid, "SIGKILL")`]);
  try {
    expect(existsSync(path)).toBe(true);
    const error = await connect({ unix: path }).then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    expect(error?.code).toBe("ECONNREFUSED");
  } finally {
    cleanup(home);
  }
});
