// Who gets in (docs/remote.md#what-is-refused-and-why), attacked from each way
// in: a hostile web page (foreign Origin, even with the owner's valid cookie;
// a DNS name rebound to the listener), a guesser (200 wrong tokens), a broken
// peer (a 10 KB token, a 10 KB cookie, junk bodies). Nothing is upgraded
// before the token is known good.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { bearer, REMOTE_CONFIG, remoteUrl, upgradeStatus, wsClient, wsUrl } from "../support/remote.ts";

let daemon: TestDaemon;
let base: string;
let origin: string;
let operate: string;

beforeAll(async () => {
  daemon = await startDaemon({ config: REMOTE_CONFIG });
  base = await remoteUrl(daemon);
  origin = base.replace(/\/$/, "");
  const local = await daemon.client();
  operate = (await local.createToken({ name: "browser", scope: "operate" })).token;
  await local.close();
});

afterAll(async () => {
  await daemon?.stop();
  if (daemon) cleanup(daemon.home);
});

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path.slice(1)}`, { method: "POST", headers: { "content-type": "application/json", origin, ...headers }, body: JSON.stringify(body) });
}

/** Logs in from the console's origin; the cookie's name=value. */
async function login(token: string): Promise<string> {
  const res = await post("/login", { token });
  expect(res.status).toBe(204);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

describe("tokens and cookies", () => {
  test("the token file keeps hashes only, 0600 in a 0700 directory", () => {
    const file = join(daemon.home, "remote/tokens.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(daemon.home, "remote")).mode & 0o777).toBe(0o700);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(operate);
    expect(text).not.toContain(operate.slice(3, 20));
    expect(operate).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
  });

  test("no token, a wrong token, a malformed header: refused before the upgrade", async () => {
    expect((await upgradeStatus(base, {})).status).toBe(401);
    expect((await upgradeStatus(base, { authorization: `Bearer ct_${"A".repeat(43)}` })).status).toBe(401);
    expect((await upgradeStatus(base, { authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);
    expect((await upgradeStatus(base, { authorization: `Bearer ${operate}` })).status).toBe(101);
  });

  test("login sets an HttpOnly, SameSite=Strict session cookie that is not the token; /me and /logout", async () => {
    const res = await post("/login", { token: operate });
    expect(res.status).toBe(204);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^crabtalk_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).not.toContain("Secure"); // plain HTTP on loopback
    expect(setCookie).not.toContain(operate);
    const cookie = setCookie.split(";")[0];
    const me = await fetch(`${base}me`, { headers: { cookie } });
    expect(await me.json()).toEqual({ name: "browser", scope: "operate" });
    const { client } = await wsClient(wsUrl(base), { headers: { cookie, origin } });
    await client.ping();
    await client.close();
    expect((await post("/logout", {}, { cookie })).status).toBe(204);
    expect((await fetch(`${base}me`, { headers: { cookie } })).status).toBe(401);
    expect((await upgradeStatus(base, { cookie, origin })).status).toBe(401);
  });

  test("a cookie upgrade needs the console's own Origin: a foreign one, or none, is refused", async () => {
    const cookie = await login(operate);
    expect((await upgradeStatus(base, { cookie, origin: "http://127.0.0.1:1" })).status).toBe(403);
    expect((await upgradeStatus(base, { cookie, origin: "http://evil.example" })).status).toBe(403);
    expect((await upgradeStatus(base, { cookie, origin: "null" })).status).toBe(403);
    expect((await upgradeStatus(base, { cookie })).status).toBe(403);
    // Not even a Bearer token gets in from a foreign page.
    expect((await upgradeStatus(base, { authorization: `Bearer ${operate}`, origin: "http://evil.example" })).status).toBe(403);
    expect((await upgradeStatus(base, { cookie, origin })).status).toBe(101);
  });

  test("POSTs from another origin, or with no Origin, are refused before the token is looked at", async () => {
    expect((await post("/login", { token: operate }, { origin: "http://evil.example" })).status).toBe(403);
    const noOrigin = await fetch(`${base}login`, { method: "POST", body: JSON.stringify({ token: operate }) });
    expect(noOrigin.status).toBe(403);
    const cookie = await login(operate);
    expect((await fetch(`${base}me`, { headers: { cookie, origin: "http://evil.example" } })).status).toBe(403);
  });

  test("a Host that is a DNS name other than localhost (DNS rebinding) is refused", async () => {
    const port = new URL(base).port;
    const rebound = await fetch(`${base}me`, { headers: { host: `attacker.example:${port}` } });
    expect(rebound.status).toBe(403);
    expect((await upgradeStatus(base, { host: `attacker.example:${port}`, authorization: `Bearer ${operate}` })).status).toBe(403);
    expect((await upgradeStatus(base, { host: `localhost:${port}`, authorization: `Bearer ${operate}` })).status).toBe(101);
    // The console page's origin then is http://localhost:PORT: a cookie works from there.
    const cookie = await login(operate);
    expect((await upgradeStatus(base, { host: `localhost:${port}`, origin: `http://localhost:${port}`, cookie })).status).toBe(101);
  });

  test("a 10 KB token and a 10 KB cookie are refused cleanly, and the listener goes on", async () => {
    const big = `ct_${"A".repeat(10 * 1024)}`;
    expect((await upgradeStatus(base, { authorization: `Bearer ${big}` })).status).toBe(401);
    // In a /login body it is over the 4 KB a body may be: 400 before any lookup.
    expect((await post("/login", { token: big })).status).toBe(400);
    const cookie = `crabtalk_session=${"B".repeat(10 * 1024)}`;
    expect((await upgradeStatus(base, { cookie, origin })).status).toBe(401);
    expect((await fetch(`${base}me`, { headers: { cookie } })).status).toBe(401);
    const hugeBody = await fetch(`${base}login`, { method: "POST", headers: { origin }, body: "x".repeat(100 * 1024) });
    expect(hugeBody.status).toBeOneOf([400, 413]);
    expect((await post("/login", "not an object")).status).toBe(400);
    const { client } = await wsClient(wsUrl(base), bearer(operate));
    await client.ping();
    await client.close();
  });

  test("the console page is served at GET /", async () => {
    const res = await fetch(base);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<html");
  });
});

describe("guessing", () => {
  test("200 wrong tokens in a row slow down (429, growing Retry-After) and none gets in", async () => {
    const statuses: number[] = [];
    const retryAfter: number[] = [];
    for (let i = 0; i < 200; i++) {
      const wrong = `ct_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
      const res = await post("/login", { token: wrong });
      statuses.push(res.status);
      if (res.status === 429) retryAfter.push(Number(res.headers.get("retry-after")));
      await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 204)).toEqual([]);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // A few are looked at, then the address waits: most of the 200 are turned away unread.
    const looked = statuses.filter((s) => s === 401).length;
    expect(looked).toBeGreaterThanOrEqual(3);
    expect(looked).toBeLessThan(50);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(retryAfter.length).toBeGreaterThan(150);
    for (let i = 1; i < retryAfter.length; i++) expect(retryAfter[i]).toBeGreaterThanOrEqual(retryAfter[i - 1] - 1);
    // Even the right token waits out the lock: the guesser's address learns nothing.
    const right = await post("/login", { token: operate });
    expect(right.status).toBe(429);
    // Bearer upgrades are the same door.
    expect((await upgradeStatus(base, { authorization: `Bearer ${operate}` })).status).toBe(429);
    // The log says so, at most a line a second, and never a token.
    const log = readFileSync(join(daemon.home, "logs/daemon.log"), "utf8");
    const lines = log.split("\n").filter((l) => l.includes("refused a remote login"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(60);
    expect(log).not.toContain(operate);
    expect(log).not.toContain("ct_");
  });
});
