// Who may connect over loopback TCP: only the daemon's own OS user. A second
// OS user is created for real and runs a client through setpriv.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { cleanup, REPO, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { runCommand } from "../support/cli.ts";
import { readableByAnyone } from "../support/other-user.ts";
import { PeerUids, type TcpPair } from "../../src/transport/peer-uid.ts";
import { ownerInTable, procEndpoint } from "../../src/transport/proc-net-tcp.ts";

const OTHER = "crabtalk-other";
// Another OS user runs the client: from a copy it can read, in a directory it can enter.
const SHARED = readableByAnyone(["tcp-ping.ts", "tcp-flood.ts", "raw-proto.ts"].map((f) => join(REPO, "test/support", f)));
const PING = join(SHARED, "tcp-ping.ts");
const FLOOD = join(SHARED, "tcp-flood.ts");

/** The uid/gid of a second OS user, created when missing (needs root and `useradd`, from Debian's passwd). */
async function otherUser(): Promise<{ uid: number; gid: number }> {
  if (process.getuid?.() !== 0) throw new Error("this test creates an OS user: run it as root (CI does)");
  const env = { PATH: `${process.env.PATH}:/usr/sbin:/sbin` };
  let id = await runCommand(["id", "-u", OTHER], { env });
  if (id.code !== 0) {
    const made = await runCommand(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER], { env });
    // 9: created meanwhile by a parallel run.
    if (made.code !== 0 && made.code !== 9) throw new Error(`useradd failed (install Debian's passwd): ${made.stderr}`);
    id = await runCommand(["id", "-u", OTHER], { env });
  }
  const gid = await runCommand(["id", "-g", OTHER], { env });
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

type User = { uid: number; gid: number };

/** Runs a script of SHARED with bun, as `user` (null: as ourselves). */
function runAs(user: User | null, script: string, args: Array<string | number>) {
  const bun = [process.execPath, script, ...args.map(String)];
  const command = user ? ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", ...bun] : bun;
  return runCommand(command, { cwd: SHARED, env: { PATH: process.env.PATH, HOME: "/tmp", BUN_INSTALL_CACHE_DIR: "/tmp/.bun-other-cache" } });
}

/** `connections` Pings one after another, from `localPort` when given. */
function pingAs(user: User | null, port: number, connections = 1, localPort?: number) {
  return runAs(user, PING, localPort === undefined ? [port, connections] : [port, connections, localPort]);
}

/** A local port nobody holds right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let daemon: TestDaemon;
let other: { uid: number; gid: number };
beforeAll(async () => {
  other = await otherUser();
  daemon = await startDaemon();
});
afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
  cleanup(SHARED);
});

test("another OS user is refused on TCP and the refusal is logged, while the owner is served", async () => {
  const refused = await pingAs(other, daemon.port);
  expect(refused.stderr).toBe("");
  expect(refused.stdout.trim()).toBe("closed");
  const served = await pingAs(null, daemon.port);
  expect(served.stdout.trim()).toBe("pong");
  const client = await daemon.client({ tcp: true });
  await client.ping();
  await client.close();
  const log = readFileSync(join(daemon.home, "logs/daemon.log"), "utf8");
  expect(log).toMatch(new RegExp(`WARN refused a TCP connection from another OS user peer=127\\.0\\.0\\.1:\\d+ uid=${other.uid}`));
});

test("a flood of refused connections is logged a line a second with a count, not a line each", async () => {
  const log = () => readFileSync(join(daemon.home, "logs/daemon.log"), "utf8");
  const before = log().split("\n").length - 1;
  const refused = await pingAs(other, daemon.port, 30);
  expect(refused.stdout.trim()).toBe(Array(30).fill("closed").join(" "));
  // The refusals not logged are counted on the next line written, a second later at most.
  let attempts = 30;
  while (!log().includes("also_refused=")) {
    expect((await pingAs(other, daemon.port)).stdout.trim()).toBe("closed");
    attempts++;
    await Bun.sleep(100);
  }
  const logged = log()
    .split("\n")
    .slice(before)
    .filter((l) => l.includes("refused a TCP connection"));
  expect(logged.length).toBeLessThan(attempts);
  expect(logged.some((l) => /also_refused=\d+/.test(l))).toBe(true);
  // The owner is still served.
  expect((await pingAs(null, daemon.port)).stdout.trim()).toBe("pong");
});

test("a flood of connects from another OS user is refused, every one, while the owner is served all along", async () => {
  // 3,000 connects, 32 at once, each sending a Ping and given 10 s to be hung up on.
  let flooding = true;
  const flood = runAs(other, FLOOD, [daemon.port, 60, 3000, 32, 10_000]).finally(() => (flooding = false));
  const owner = await daemon.client({ tcp: true });
  let pings = 0;
  let fresh = 0;
  // The owner's open connection and fresh ones (each admitted during the flood) all answer.
  while (flooding || fresh < 5) {
    await owner.ping();
    if (++pings % 10 === 0) {
      const c = await daemon.client({ tcp: true });
      await c.ping();
      await c.close();
      fresh++;
    }
  }
  await owner.close();
  const result = await flood;
  expect(result.stderr).toBe("");
  const counts = JSON.parse(result.stdout) as Record<string, number>;
  expect(counts.connects).toBe(3000);
  expect(counts.answered).toBe(0);
  expect(counts.timed_out).toBe(0);
  expect(counts.failed).toBe(0);
  expect(counts.refused).toBe(3000);
});

test("a local port the owner connected from is refused to another user who connects from it next, and the other way round", async () => {
  const port = await freePort();
  expect((await pingAs(null, daemon.port, 1, port)).stdout.trim()).toBe("pong");
  const refused = await pingAs(other, daemon.port, 1, port);
  expect(refused.stderr).toBe("");
  expect(refused.stdout.trim()).toBe("closed");
  expect((await pingAs(null, daemon.port, 1, port)).stdout.trim()).toBe("pong");
});

test("both lookups, the kernel's and /proc/net/tcp's, name each peer's user, also on a reused local port", async () => {
  const kernel = new PeerUids();
  expect(await kernel.ready()).toBe(true);
  const proc = new PeerUids(false);
  const seen: Array<{ kernel: number | undefined | "not synchronous"; proc: number | undefined }> = [];
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        const pair: TcpPair = {
          localAddress: socket.localAddress,
          localPort: socket.localPort,
          remoteAddress: socket.remoteAddress,
          remotePort: socket.remotePort,
        };
        // The kernel answers at once, before the socket's first event.
        const viaKernel = kernel.uidOf(pair);
        void Promise.resolve(proc.uidOf(pair)).then((viaProc) => {
          seen.push({ kernel: viaKernel instanceof Promise ? "not synchronous" : viaKernel, proc: viaProc });
          socket.terminate();
        });
      },
      data() {},
    },
  });
  try {
    const port = await freePort();
    for (const user of [other, null, other]) {
      expect((await pingAs(user, listener.port, 1, port)).stdout.trim()).toBe("closed");
    }
    const me = process.getuid!();
    expect(seen).toEqual([
      { kernel: other.uid, proc: other.uid },
      { kernel: me, proc: me },
      { kernel: other.uid, proc: other.uid },
    ]);
  } finally {
    listener.stop(true);
  }
});

test("the Unix socket is the owner's only: 0600 in a 0700 directory", () => {
  expect(statSync(daemon.socket).mode & 0o777).toBe(0o600);
  expect(statSync(join(daemon.home, "run")).mode & 0o777).toBe(0o700);
});

test("/proc/net/tcp and tcp6 entries are spelled in host byte order, IPv4 v4-mapped in tcp6", () => {
  expect(procEndpoint("127.0.0.1", 6688, false)).toBe("0100007F:1A20");
  expect(procEndpoint("::ffff:127.0.0.1", 6688, false)).toBe("0100007F:1A20");
  expect(procEndpoint("127.0.0.1", 6688, true)).toBe("0000000000000000FFFF00000100007F:1A20");
  expect(procEndpoint("::1", 80, true)).toBe("00000000000000000000000001000000:0050");
  expect(procEndpoint("::1", 80, false)).toBeUndefined();
  expect(procEndpoint("not an address", 80, true)).toBeUndefined();
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:1A20 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 1 1 0",
    "   1: 0100007F:C350 0100007F:1A20 01 00000000:00000000 00:00000000 00000000   999        0 2 1 0",
    "   2: 0100007F:C351 0100007F:1A20 06 00000000:00000000 03:00000000 00000000     0        0 0 3 0",
    "   3: 0100007F:1A20 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4 1 0",
  ].join("\n");
  expect(ownerInTable(table, "0100007F:C350", "0100007F:1A20")).toBe(999);
  expect(ownerInTable(table, "0100007F:1A20", "0100007F:C350")).toBe(0);
  // A TIME_WAIT entry (uid 0, whoever owned it) and a listener are no one's socket.
  expect(ownerInTable(table, "0100007F:C351", "0100007F:1A20")).toBeUndefined();
  expect(ownerInTable(table, "0100007F:1A20", "00000000:0000")).toBeUndefined();
  expect(ownerInTable(table, "0100007F:C352", "0100007F:1A20")).toBeUndefined();
});
