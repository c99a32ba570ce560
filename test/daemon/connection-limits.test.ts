// Connections cannot exhaust the daemon: partial frames have a deadline and a
// shared memory cap, idle connections are closed, the number of connections is
// capped, and memory goes back after they close. Limits are small here (set in
// config.toml) so the tests run fast; the resource test uses the defaults.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { CLIENT, RawConnection, SERVER, errorOf, frame, lenField, serverVariant, stringField } from "../support/raw-proto.ts";

const MiB = 1024 * 1024;
const LIST_CONVERSATIONS = 7;
const SUBSCRIBE_EVENTS = 34;
const ping = frame(lenField(CLIENT.ping, []));

/** The 4-byte header of a frame declaring `length` bytes. */
function header(length: number): Uint8Array {
  const h = new Uint8Array(4);
  new DataView(h.buffer).setUint32(0, length, false);
  return h;
}

/** A valid request of about `bytes` bytes: ListConversations with a long agent filter. */
function bigRequest(bytes: number): Uint8Array {
  return lenField(LIST_CONVERSATIONS, stringField(1, "a".repeat(bytes)));
}

async function pong(c: RawConnection): Promise<void> {
  c.write(ping);
  const reply = await c.readFrame(10_000);
  expect(serverVariant(reply!).tag).toBe(SERVER.pong);
}

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

const openFds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe("a frame must complete in time; idle connections are closed", () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ config: "[system.limits]\nframe_timeout = 1\nidle_timeout = 1\n" });
  });
  afterAll(async () => {
    expect(await daemon.stop()).toBe(0);
    cleanup(daemon.home);
  });

  test("a frame started and not finished gets 408 and the connection is closed", async () => {
    const c = await RawConnection.open({ path: daemon.socket });
    c.write([...header(100), 1, 2, 3]);
    const err = errorOf((await c.readFrame(10_000))!);
    expect(err.code).toBe(408);
    expect(err.message).toBe("frame not complete within 1 s of its first byte");
    expect(await c.waitClosed(10_000)).toBe(true);
  });

  test("a connection with nothing in flight is closed; one with a subscription stays", async () => {
    const subscribed = await RawConnection.open({ path: daemon.socket });
    subscribed.write(frame(lenField(SUBSCRIBE_EVENTS, [])));
    const idle = await RawConnection.open({ port: daemon.port });
    await pong(idle); // served, then idle
    expect(await idle.waitClosed(10_000)).toBe(true);
    // The idle one opened after the subscriber, so the subscriber has been idle-eligible as long.
    expect(subscribed.closed).toBe(false);
    subscribed.destroy();
    // Others are served as before.
    const fresh = await RawConnection.open({ path: daemon.socket });
    await pong(fresh);
    fresh.destroy();
  });
});

describe("partial frames share one memory cap; connections are capped", () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ config: `[system.limits]\nframe_buffer_bytes = ${MiB}\nmax_connections = 4\n` });
  });
  afterAll(async () => {
    expect(await daemon.stop()).toBe(0);
    cleanup(daemon.home);
  });

  /** A served connection; connections closed just before may still hold their slots for a moment. */
  async function openServed(): Promise<RawConnection> {
    for (;;) {
      const c = await RawConnection.open({ path: daemon.socket });
      c.write(ping);
      const reply = await c.readFrame(10_000);
      if (reply && serverVariant(reply).tag === SERVER.pong) return c;
      c.destroy();
      await Bun.sleep(20);
    }
  }

  test("a partial frame that would pass the cap gets 503; the one holding memory completes; the memory goes back", async () => {
    const request = frame(bigRequest(700 * 1024));
    const holder = await RawConnection.open({ path: daemon.socket });
    // All of it in the kernel first: what the socket buffer still holds (at most
    // ~208 KiB) the daemon reads in one go, no later than it answers a Ping sent
    // after that on another connection. Without the wait, the rest of it could
    // reach the daemon after the second connection's bytes and be the one refused.
    await holder.flushed(request.subarray(0, 600 * 1024));
    const other = await openServed();
    other.destroy();
    const second = await RawConnection.open({ path: daemon.socket });
    second.write(request.subarray(0, 500 * 1024));
    const busy = errorOf((await second.readFrame(10_000))!);
    expect(busy.code).toBe(503);
    expect(busy.message).toContain("daemon busy: partly received frames hold 1048576 bytes");
    expect(await second.waitClosed(10_000)).toBe(true);
    holder.write(request.subarray(600 * 1024));
    expect(serverVariant((await holder.readFrame(10_000))!).tag).not.toBe(SERVER.error);
    holder.destroy();
    // Both gone: the whole cap is free again for one frame just under it.
    const next = await RawConnection.open({ path: daemon.socket });
    next.write(frame(bigRequest(MiB - 100)));
    expect(serverVariant((await next.readFrame(10_000))!).tag).not.toBe(SERVER.error);
    next.destroy();
  });

  test("past max_connections a client gets a clear 503 and a slot frees when one closes", async () => {
    const held: RawConnection[] = [];
    for (let i = 0; i < 4; i++) held.push(await openServed());
    const extra = await RawConnection.open({ port: daemon.port });
    const err = errorOf((await extra.readFrame(10_000))!);
    expect(err.code).toBe(503);
    expect(err.message).toBe("too many connections: the daemon serves at most 4 at once ([system.limits] max_connections)");
    expect(await extra.waitClosed(10_000)).toBe(true);
    held.pop()!.destroy();
    held.push(await openServed());
    for (const c of held) c.destroy();
  });
});

test("1,000 idle connections and 40 half-sent 15 MiB frames: under 150 MiB, and back near idle after they close", async () => {
  const daemon = await startDaemon(); // default limits
  const pid = daemon.proc.pid;
  try {
    const idleRss = rssMiB(pid);
    const idleFds = openFds(pid);
    const idle: RawConnection[] = [];
    for (let i = 0; i < 1000; i++) idle.push(await RawConnection.open({ path: daemon.socket }));
    const body = new Uint8Array(15 * MiB);
    const halfSent: RawConnection[] = [];
    let peak = rssMiB(pid);
    for (let i = 0; i < 40; i++) {
      const c = await RawConnection.open({ path: daemon.socket });
      c.write(header(16 * MiB));
      c.write(body);
      halfSent.push(c);
      peak = Math.max(peak, rssMiB(pid));
    }
    // Every half-sent frame is held (within the cap) or refused with 503 (cap, or max_connections); wait for the refusals.
    let settled = 0;
    const replies = halfSent.map((c) =>
      c.readFrame(60_000).then(
        (r) => (settled++, r),
        () => null,
      ),
    );
    while (settled < 38) {
      await Bun.sleep(20);
      peak = Math.max(peak, rssMiB(pid));
    }
    console.log(`rss: idle ${idleRss.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB, fds ${idleFds} → ${openFds(pid)}`);
    expect(peak).toBeLessThan(150);
    for (const c of [...idle, ...halfSent]) c.destroy();
    const refused = (await Promise.all(replies)).filter((r) => r !== null && errorOf(r).code === 503);
    expect(refused.length).toBeGreaterThanOrEqual(38);
    // Back near idle: fds at once the closes are seen, memory after the next collection.
    let after = rssMiB(pid);
    for (let i = 0; i < 200 && (openFds(pid) > idleFds + 5 || after > idleRss + 20); i++) {
      await Bun.sleep(50);
      after = rssMiB(pid);
    }
    console.log(`rss after close ${after.toFixed(1)} MiB, fds ${openFds(pid)}`);
    expect(openFds(pid)).toBeLessThanOrEqual(idleFds + 5);
    expect(after).toBeLessThan(idleRss + 20);
    // And it still serves.
    const c = await RawConnection.open({ path: daemon.socket });
    await pong(c);
    c.destroy();
  } finally {
    expect(await daemon.stop()).toBe(0);
    cleanup(daemon.home);
  }
}, 120_000);
