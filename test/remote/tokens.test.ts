// Token operations over the Unix socket (docs/protocol.md "Remote access"):
// names and scopes are checked, a name is taken once, a secret is shown once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import type { Client, DaemonError } from "../../src/protocol/client.ts";

let daemon: TestDaemon;
let client: Client;
beforeAll(async () => {
  daemon = await startDaemon();
  client = await daemon.client();
});
afterAll(async () => {
  await client?.close();
  await daemon?.stop();
  if (daemon) cleanup(daemon.home);
});

const code = (p: Promise<unknown>) =>
  p.then(
    () => 0,
    (e: DaemonError) => e.code,
  );

test("create, list (never the secret), revoke", async () => {
  const before = Date.now();
  const created = await client.createToken({ name: "laptop.work_1", scope: "admin", expiresInSecs: 3600n });
  expect(created.token).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
  expect(created.info?.scope).toBe("admin");
  expect(Number(created.info?.expiresMs)).toBeGreaterThanOrEqual(before + 3600_000);
  const other = await client.createToken({ name: "b", scope: "read" });
  expect(other.token).not.toBe(created.token);
  const listed = await client.listTokens();
  expect(listed.map((t) => t.name)).toEqual(["b", "laptop.work_1"]);
  expect(JSON.stringify(listed, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("ct_");
  expect(listed[0].expiresMs).toBe(0n);
  expect(listed[0].lastUsedMs).toBe(0n);
  await client.revokeToken("b");
  expect((await client.listTokens()).map((t) => t.name)).toEqual(["laptop.work_1"]);
});

test("bad names and scopes are 400, a taken name 409, an unknown one 404", async () => {
  expect(await code(client.createToken({ name: "", scope: "read" }))).toBe(400);
  expect(await code(client.createToken({ name: "has space", scope: "read" }))).toBe(400);
  expect(await code(client.createToken({ name: "../x", scope: "read" }))).toBe(400);
  expect(await code(client.createToken({ name: "x".repeat(65), scope: "read" }))).toBe(400);
  expect(await code(client.createToken({ name: "ok", scope: "root" }))).toBe(400);
  expect(await code(client.createToken({ name: "ok", scope: "" }))).toBe(400);
  await client.createToken({ name: "dup", scope: "read" });
  expect(await code(client.createToken({ name: "dup", scope: "admin" }))).toBe(409);
  expect(await code(client.revokeToken("nobody"))).toBe(404);
  expect((await client.listTokens()).map((t) => t.name)).not.toContain("ok");
});
