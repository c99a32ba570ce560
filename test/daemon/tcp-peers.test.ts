// Who may connect over loopback TCP: only the daemon's own OS user. A second
// OS user is created for real and runs a client through setpriv.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { cleanup, REPO, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { runCommand } from "../support/cli.ts";
import { readableByAnyone } from "../support/other-user.ts";
import { endpointKey, parseProcEndpoint, socketKey, socketOwners } from "../../src/transport/peer-uid.ts";

const OTHER = "crabtalk-other";
// Another OS user runs the client: from a copy it can read, in a directory it can enter.
const SHARED = readableByAnyone([join(REPO, "test/support/tcp-ping.ts"), join(REPO, "test/support/raw-proto.ts")]);
const PING = join(SHARED, "tcp-ping.ts");

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

function pingAs(user: { uid: number; gid: number } | null, port: number, connections = 1) {
  const bun = [process.execPath, PING, String(port), String(connections)];
  const command = user ? ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", ...bun] : bun;
  return runCommand(command, { cwd: SHARED, env: { PATH: process.env.PATH, HOME: "/tmp", BUN_INSTALL_CACHE_DIR: "/tmp/.bun-other-cache" } });
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
  const logged = log().split("\n").slice(before).filter((l) => l.includes("refused a TCP connection"));
  expect(logged.length).toBeLessThan(attempts);
  expect(logged.some((l) => /also_refused=\d+/.test(l))).toBe(true);
  // The owner is still served.
  expect((await pingAs(null, daemon.port)).stdout.trim()).toBe("pong");
});

test("the Unix socket is the owner's only: 0600 in a 0700 directory", () => {
  expect(statSync(daemon.socket).mode & 0o777).toBe(0o600);
  expect(statSync(join(daemon.home, "run")).mode & 0o777).toBe(0o700);
});

test("/proc/net/tcp and tcp6 entries are read in host byte order, v4-mapped addresses folded", () => {
  expect(parseProcEndpoint("0100007F:1A20")).toBe("127.0.0.1:6688");
  expect(parseProcEndpoint("0000000000000000FFFF00000100007F:1A20")).toBe("127.0.0.1:6688");
  expect(parseProcEndpoint("00000000000000000000000001000000:0050")).toBe("0:0:0:0:0:0:0:1:80");
  expect(endpointKey("::1", 80)).toBe("0:0:0:0:0:0:0:1:80");
  expect(endpointKey("::ffff:127.0.0.1", 80)).toBe("127.0.0.1:80");
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:1A20 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 1 1 0",
    "   1: 0100007F:C350 0100007F:1A20 01 00000000:00000000 00:00000000 00000000   999        0 2 1 0",
    "   2: 0100007F:C351 0100007F:1A20 06 00000000:00000000 03:00000000 00000000     0        0 0 3 0",
    "   3: 0100007F:1A20 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4 1 0",
  ].join("\n");
  const owners = socketOwners(table);
  expect(owners.get(socketKey("127.0.0.1:50000", "127.0.0.1:6688"))).toBe(999);
  expect(owners.get(socketKey("127.0.0.1:6688", "127.0.0.1:50000"))).toBe(0);
  // A TIME_WAIT entry (uid 0, whoever owned it) and a listener are no one's socket.
  expect(owners.get(socketKey("127.0.0.1:50001", "127.0.0.1:6688"))).toBeUndefined();
  expect(owners.size).toBe(2);
});
