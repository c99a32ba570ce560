// The remote listener attacked from each way in (docs/remote.md#what-is-refused-and-why),
// beyond http-auth.test.ts: a hostile web page's Host and Origin variants,
// CORS and cross-site form posts; another OS user on the machine; a paired
// device's cookie at revoke; a token holder opening connection after
// connection, parking maximum-size messages behind a subscription, or
// dribbling an upgrade's headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { bearer, openWs, REMOTE_CONFIG, remoteUrl, upgradeStatus, wsUrl, type WsChannel } from "../support/remote.ts";
import { until } from "../support/until.ts";
import { encodeClientMessage } from "../../src/protocol/codec.ts";
import { MAX_CONNECTIONS_PER_TOKEN } from "../../src/remote/listener.ts";
import { selfSignedCertificate } from "../../src/remote/self-signed.ts";

const MiB = 1024 * 1024;
let daemon: TestDaemon;
let base: string;
let origin: string;
let port: number;
let readToken: string;

beforeAll(async () => {
  daemon = await startDaemon({ config: REMOTE_CONFIG });
  base = await remoteUrl(daemon);
  origin = base.replace(/\/$/, "");
  port = Number(new URL(base).port);
  const local = await daemon.client();
  readToken = (await local.createToken({ name: "reader", scope: "read" })).token;
  await local.close();
});

afterAll(async () => {
  await daemon?.stop();
  if (daemon) cleanup(daemon.home);
});

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

describe("a hostile web page", () => {
  test("Host variants of a rebound or spoofed name are refused; Origin variants of the console's own are foreign", async () => {
    const auth = { authorization: `Bearer ${readToken}` };
    for (const host of [
      `localhost.:${port}`,
      `127.1:${port}`,
      `0x7f.1:${port}`,
      "127.0.0.1",
      `127.0.0.1:${port + 1}`,
      `localhost:${port}.evil.com`,
      `evil.localhost:${port}`,
    ]) {
      expect({ host, status: (await upgradeStatus(base, { ...auth, host })).status }).toEqual({ host, status: 403 });
    }
    // Not names a page can rebind: the same machine.
    for (const host of [`LOCALHOST:${port}`, `[::ffff:127.0.0.1]:${port}`]) {
      expect({ host, status: (await upgradeStatus(base, { ...auth, host })).status }).toEqual({ host, status: 101 });
    }
    for (const o of ["null", `https://127.0.0.1:${port}`, `http://127.0.0.1:${port}.evil.com`, `http://127.0.0.1:${port}/`, `http://127.0.0.1`]) {
      expect({ o, status: (await upgradeStatus(base, { ...auth, origin: o })).status }).toEqual({ o, status: 403 });
    }
  });

  test("no answer lets a foreign page read it: no CORS header, a preflight is refused", async () => {
    const preflight = await fetch(`${base}login`, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(403);
    const answers = [preflight, await fetch(base), await fetch(`${base}me`), await fetch(`${base}login`, { method: "POST", headers: { origin }, body: "{}" })];
    for (const res of answers) {
      for (const name of res.headers.keys()) expect(name.startsWith("access-control-")).toBe(false);
    }
  });

  test("cross-site form and text/plain posts to /login, /pair and /logout are refused, and log nobody out", async () => {
    const login = await fetch(`${base}login`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ token: readToken }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    for (const path of ["login", "pair", "logout"]) {
      for (const [type, body] of [
        ["text/plain", JSON.stringify({ token: readToken, code: "x" })],
        ["application/x-www-form-urlencoded", `token=${readToken}`],
      ]) {
        for (const o of ["http://evil.example", "null"]) {
          const res = await fetch(`${base}${path}`, { method: "POST", headers: { origin: o, "content-type": type, cookie }, body });
          expect({ path, type, o, status: res.status, cookie: res.headers.get("set-cookie") }).toEqual({ path, type, o, status: 403, cookie: null });
        }
      }
    }
    expect((await fetch(`${base}me`, { headers: { cookie } })).status).toBe(200);
  });
});

describe("another OS user on the machine", () => {
  test("cannot read the token hashes, the TLS key or the logs, even with the home left open", () => {
    selfSignedCertificate(join(daemon.home, "remote"), []);
    chmodSync(daemon.home, 0o755);
    for (const path of ["remote/tokens.json", "remote/tls-key.pem", "remote", "logs/daemon.log"]) {
      const file = join(daemon.home, path);
      const run = Bun.spawnSync(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", path.includes(".") ? "cat" : "ls", file]);
      expect({ path, refused: run.exitCode !== 0, out: run.stdout.toString() }).toEqual({ path, refused: true, out: "" });
      expect(run.stderr.toString()).toContain("Permission denied");
    }
  });
});

describe("a paired device", () => {
  test("its cookie dies with its token at revoke, and does not come back with a new token of that name", async () => {
    const local = await daemon.client();
    const { url } = await local.createPairing({ name: "phone", scope: "read" });
    const code = new URL(url).hash.replace("#pair=", "");
    const paired = await fetch(`${base}pair`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: JSON.stringify({ code }) });
    expect(paired.status).toBe(200);
    const cookie = (paired.headers.get("set-cookie") ?? "").split(";")[0];
    const channel = await openWs(wsUrl(base), { headers: { cookie, origin } });
    await local.revokeToken("phone");
    await until(() => channel.closed, { what: "the paired browser's connection to close at revoke" });
    expect((await fetch(`${base}me`, { headers: { cookie } })).status).toBe(401);
    await local.createToken({ name: "phone", scope: "admin" });
    expect((await fetch(`${base}me`, { headers: { cookie } })).status).toBe(401);
    expect((await upgradeStatus(base, { cookie, origin })).status).toBe(401);
    await local.revokeToken("phone");
    await local.close();
  });
});

describe("a token holder", () => {
  test(`at most ${MAX_CONNECTIONS_PER_TOKEN} connections per token: the next is refused before the upgrade, another token is not`, async () => {
    const local = await daemon.client();
    const mine = (await local.createToken({ name: "many", scope: "read" })).token;
    const other = (await local.createToken({ name: "other", scope: "read" })).token;
    const held: WsChannel[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS_PER_TOKEN; i++) held.push(await openWs(wsUrl(base), bearer(mine)));
      const refused = await upgradeStatus(base, { authorization: `Bearer ${mine}` });
      expect(refused.status).toBe(429);
      expect(refused.body).toContain(`${MAX_CONNECTIONS_PER_TOKEN} connections open`);
      expect((await upgradeStatus(base, { authorization: `Bearer ${other}` })).status).toBe(101);
      held.pop()!.ws.close();
      await until(async () => (await local.getRemoteStatus()).connections.find((c) => c.tokenName === "many")?.count === MAX_CONNECTIONS_PER_TOKEN - 1, {
        what: "the closed connection to leave the count",
      });
      held.push(await openWs(wsUrl(base), bearer(mine)));
    } finally {
      for (const c of held) c.ws.close();
      await local.revokeToken("many");
      await local.revokeToken("other");
      await local.close();
    }
  });

  test("maximum-size messages parked behind a subscription are not all read into memory", async () => {
    const pid = daemon.proc.pid;
    const before = rssMiB(pid);
    const channel = await openWs(wsUrl(base), bearer(readToken));
    channel.ws.send(encodeClientMessage({ case: "subscribeEvents", value: {} }));
    // A read token's Send is refused with 403, but only once its turn comes: behind a subscription, never.
    const big = encodeClientMessage({ case: "send", value: { agent: "crab", content: "x".repeat(15 * MiB) } });
    const count = 12;
    for (let i = 0; i < count; i++) channel.ws.send(big);
    // Settled: the daemon has taken what it will take (the client's backlog stops shrinking).
    let peak = rssMiB(pid);
    let last = -1;
    let still = 0;
    await until(
      () => {
        peak = Math.max(peak, rssMiB(pid));
        const now = channel.ws.bufferedAmount;
        still = now === last ? still + 1 : 0;
        last = now;
        return still >= 25;
      },
      { what: "the daemon to stop reading the parked messages", timeoutMs: 30_000 },
    );
    console.log(
      `rss ${before.toFixed(1)} → peak ${peak.toFixed(1)} MiB; ${(last / MiB).toFixed(0)} of ${((count * big.length) / MiB).toFixed(0)} MiB left unread`,
    );
    expect(last).toBeGreaterThan((count - 5) * big.length);
    expect(peak - before).toBeLessThan(100);
    channel.ws.close();
  });

  test("an upgrade whose headers dribble in is closed, and the listener serves others meanwhile", async () => {
    const sock = connect(port, "127.0.0.1");
    let closed = false;
    sock.on("close", () => (closed = true));
    sock.on("error", () => {});
    sock.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const started = Date.now();
    let n = 0;
    await until(
      async () => {
        if (!closed && Date.now() - started > n * 500) sock.write(`X-Slow-${n++}: a\r\n`);
        return closed;
      },
      { what: "the dribbling upgrade to be closed", timeoutMs: 30_000, intervalMs: 100 },
    );
    expect((await upgradeStatus(base, { authorization: `Bearer ${readToken}` })).status).toBe(101);
    sock.destroy();
  });
});
