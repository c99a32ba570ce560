// The fast path's protocol client (src/cli/fast/client.ts) pipelines: calls
// made together each get their own reply, in the order they were sent, as
// the daemon answers a connection's requests in order (docs/protocol.md);
// a connection that closes fails every call still waiting, and later ones.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FastClient } from "../../src/cli/fast/client.ts";
import { startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";

let daemon: TestDaemon;
let home: string;
beforeAll(async () => {
  home = tempHome();
  daemon = await startDaemon({ home });
});
afterAll(async () => {
  await daemon.stop();
  rmSync(home, { recursive: true, force: true });
});

async function openOn(dir: string): Promise<FastClient> {
  const before = process.env.CRABTALK_HOME;
  process.env.CRABTALK_HOME = dir;
  try {
    return await FastClient.open({}, () => {});
  } finally {
    if (before === undefined) delete process.env.CRABTALK_HOME;
    else process.env.CRABTALK_HOME = before;
  }
}

test("calls made at once each get their own reply, in order", async () => {
  const client = await openOn(home);
  try {
    const [agent, active, stats, missing, pong] = await Promise.all([
      client.getAgent("crab"),
      client.activeSessions(),
      client.getStats(),
      client.getAgent("no-such-agent").then(
        () => "found",
        (err: Error) => err.message,
      ),
      client.ping().then(() => "pong"),
    ]);
    expect(agent.name).toBe("crab");
    expect(active).toEqual([]);
    expect(typeof stats.uptimeSecs).toBe("bigint");
    expect(missing).toContain("no-such-agent");
    expect(pong).toBe("pong");
  } finally {
    await client.close();
  }
});

test("a connection that closes fails every call still waiting, and every later one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-fast-close-"));
  mkdirSync(join(dir, "run"));
  let frames = 0;
  const server = Bun.listen({
    unix: join(dir, "run/crabtalk.sock"),
    socket: {
      data(socket, data) {
        frames += data.length;
        // Both requests are in (each a 4-byte length and a short payload): hang up without answering.
        if (frames >= 12) socket.end();
      },
    },
  });
  try {
    const client = await openOn(dir);
    const calls = [client.ping(), client.getStats()].map((p) =>
      p.then(
        () => "answered",
        (err: Error) => err.message,
      ),
    );
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) expect(outcome).not.toBe("answered");
    expect(
      await client.ping().then(
        () => "answered",
        () => "failed",
      ),
    ).toBe("failed");
    await client.close();
  } finally {
    server.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
});
