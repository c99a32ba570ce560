// Pairing a device (docs/remote.md#pairing-a-device): the code rides in the
// URL's #fragment, works once, and not after 5 minutes (the clock is the
// PairingCodes' own, injected here).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { REMOTE_CONFIG, remoteUrl, upgradeStatus } from "../support/remote.ts";
import { PairingCodes, PAIRING_TTL_MS } from "../../src/remote/pairing.ts";
import type { DaemonError } from "../../src/protocol/client.ts";

let daemon: TestDaemon;
let base: string;
beforeAll(async () => {
  daemon = await startDaemon({ config: REMOTE_CONFIG });
  base = await remoteUrl(daemon);
});
afterAll(async () => {
  await daemon?.stop();
  if (daemon) cleanup(daemon.home);
});

function pair(code: string, origin = base.replace(/\/$/, "")): Promise<Response> {
  return fetch(`${base}pair`, { method: "POST", headers: { origin }, body: JSON.stringify({ code }) });
}

describe("pairing", () => {
  test("a link logs a new device in once, with its own named token; the second time gets nothing", async () => {
    const local = await daemon.client();
    const link = await local.createPairing({ name: "phone", scope: "" });
    expect(link.scope).toBe("operate");
    const url = new URL(link.url);
    expect(`${url.origin}/`).toBe(base);
    expect(url.pathname).toBe("/");
    expect(url.search).toBe("");
    const code = url.hash.replace(/^#pair=/, "");
    expect(code.length).toBeGreaterThanOrEqual(22);
    // Its name is taken while the link is pending.
    const taken = await local.createToken({ name: "phone", scope: "read" }).catch((e: DaemonError) => e);
    expect((taken as DaemonError).code).toBe(409);
    // Another page cannot spend it.
    expect((await pair(code, "http://evil.example")).status).toBe(403);
    const res = await pair(code);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; scope: string; token: string };
    expect(body.name).toBe("phone");
    expect(body.scope).toBe("operate");
    expect(body.token).toStartWith("ct_");
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    expect(await (await fetch(`${base}me`, { headers: { cookie } })).json()).toEqual({ name: "phone", scope: "operate" });
    expect((await upgradeStatus(base, { authorization: `Bearer ${body.token}` })).status).toBe(101);
    expect((await local.listTokens()).map((t) => [t.name, t.scope])).toContainEqual(["phone", "operate"]);
    // Once only.
    expect((await pair(code)).status).toBe(401);
    // The same name again: 409.
    const again = await local.createPairing({ name: "phone", scope: "read" }).catch((e: DaemonError) => e);
    expect((again as DaemonError).code).toBe(409);
    const bad = await local.createPairing({ name: "bad name!", scope: "read" }).catch((e: DaemonError) => e);
    expect((bad as DaemonError).code).toBe(400);
    const badScope = await local.createPairing({ name: "tablet", scope: "root" }).catch((e: DaemonError) => e);
    expect((badScope as DaemonError).code).toBe(400);
    await local.close();
  });

  test("a code is good until 5 minutes have passed, and not after", () => {
    let now = 1_000_000;
    const codes = new PairingCodes(() => now);
    const late = codes.create("late", "read");
    const early = codes.create("early", "admin");
    expect(late.expiresMs).toBe(now + PAIRING_TTL_MS);
    now += PAIRING_TTL_MS - 1;
    expect(codes.take(early.code)).toEqual({ name: "early", scope: "admin" });
    now += 1;
    expect(codes.take(late.code)).toBeUndefined();
    expect(codes.reserves("late")).toBe(false);
  });
});
