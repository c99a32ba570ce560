// [system.remote] (docs/remote.md#turning-it-on, docs/remote.md#tls): off by
// default; an address off loopback without TLS is refused at start and on
// reload (the old listener stays); tls = "self-signed" makes a key and a
// certificate once (0600) and a client pinning the printed fingerprint
// connects over wss://.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { bearer, pinnedCertificate, REMOTE_CONFIG, remoteUrl, upgradeStatus, wsClient, wsUrl } from "../support/remote.ts";
import type { DaemonError } from "../../src/protocol/client.ts";
import { until } from "../support/until.ts";

const started: TestDaemon[] = [];
afterAll(async () => {
  for (const d of started) {
    await d.stop();
    cleanup(d.home);
  }
});

async function start(config: string): Promise<TestDaemon> {
  const d = await startDaemon({ config });
  started.push(d);
  return d;
}

describe("[system.remote]", () => {
  test("off by default: nothing listens, pairing says 503", async () => {
    const d = await start("");
    const client = await d.client();
    const status = await client.getRemoteStatus();
    expect(status.enabled).toBe(false);
    expect(status.url).toBe("");
    expect(status.listen).toBe("");
    const err = await client.createPairing({ name: "phone" }).catch((e: DaemonError) => e);
    expect((err as DaemonError).code).toBe(503);
    // Tokens can be made before the listener is on.
    await client.createToken({ name: "early", scope: "read" });
    expect((await client.listTokens()).map((t) => t.name)).toEqual(["early"]);
    await client.close();
  });

  test("a non-loopback listen without TLS refuses to start, with one line saying why", async () => {
    const home = tempHome();
    const err = await startDaemon({ home, config: `[system.remote]\nenabled = true\nlisten = "0.0.0.0:0"\n` }).catch((e: Error) => e);
    cleanup(home);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain("reachable from other machines");
    expect((err as Error).message).toContain("tls");
  });

  test("a reload to a non-loopback listen without TLS is refused and the listener goes on; a good one rebinds", async () => {
    const d = await start(REMOTE_CONFIG);
    const client = await d.client();
    const { token } = await client.createToken({ name: "r", scope: "read" });
    const before = await remoteUrl(d);
    // A hand edit and `crabtalk reload`: refused, the old config and listener stay.
    writeFileSync(join(d.home, "config.toml"), `[system.remote]\nenabled = true\nlisten = "0.0.0.0:0"\n`);
    const err = await client.reload().catch((e: DaemonError) => e);
    expect((err as DaemonError).code).toBe(500);
    expect((err as DaemonError).message).toContain("reachable from other machines");
    expect((await client.getRemoteStatus()).url).toBe(before);
    expect((await upgradeStatus(before, { authorization: `Bearer ${token}` })).status).toBe(101);
    // Through SetConfig (what `crabtalk remote enable` uses): 400, nothing written.
    const patched = await client.setConfig(JSON.stringify({ system: { remote: { enabled: true, listen: "0.0.0.0:0" } } })).catch((e: DaemonError) => e);
    expect((patched as DaemonError).code).toBe(400);
    expect((patched as DaemonError).message).toContain("reachable from other machines");
    // Turned off by a reload: the port is let go.
    writeFileSync(join(d.home, "config.toml"), `[system.remote]\nenabled = false\n`);
    await client.reload();
    expect((await client.getRemoteStatus()).url).toBe("");
    expect(
      await fetch(before).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");
    await client.close();
  });

  test("a port already taken: the daemon starts and the status says why", async () => {
    const squatter = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("not crabtalk") });
    try {
      const d = await start(`[system.remote]\nenabled = true\nlisten = "127.0.0.1:${squatter.port}"\n`);
      const client = await d.client();
      const status = await client.getRemoteStatus();
      expect(status.enabled).toBe(true);
      expect(status.url).toBe("");
      expect(status.error).toContain(`127.0.0.1:${squatter.port}`);
      await client.close();
    } finally {
      await squatter.stop(true);
    }
  });

  test('tls = "self-signed": a client pinning the printed fingerprint connects over wss://; the cookie is Secure', async () => {
    const d = await start(`[system.remote]\nenabled = true\nlisten = "127.0.0.1:0"\ntls = "self-signed"\n`);
    const local = await d.client();
    const status = await until(
      async () => {
        const s = await local.getRemoteStatus();
        return s.url ? s : undefined;
      },
      { what: "the TLS listener" },
    );
    expect(status.tls).toBe(true);
    expect(status.url).toStartWith("https://127.0.0.1:");
    expect(status.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    for (const name of ["tls-cert.pem", "tls-key.pem"]) expect(statSync(join(d.home, "remote", name)).mode & 0o777).toBe(0o600);
    const certPem = readFileSync(join(d.home, "remote/tls-cert.pem"), "utf8");
    const { X509Certificate } = await import("node:crypto");
    const x509 = new X509Certificate(certPem);
    expect(x509.fingerprint256).toBe(status.fingerprint);
    expect(x509.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(x509.subjectAltName).toContain("DNS:localhost");
    const { token } = await local.createToken({ name: "pinned", scope: "read" });
    const url = new URL(status.url);
    const ca = await pinnedCertificate(url.hostname, Number(url.port), status.fingerprint);
    const { client } = await wsClient(wsUrl(status.url), { ...bearer(token), tls: { ca } });
    await client.ping();
    await client.close();
    // A wrong pin refuses the server.
    const wrongPin = status.fingerprint.replace(/^../, status.fingerprint.startsWith("00") ? "11" : "00");
    expect(
      await pinnedCertificate(url.hostname, Number(url.port), wrongPin).then(
        () => "trusted",
        () => "refused",
      ),
    ).toBe("refused");
    const login = await fetch(`${status.url}login`, {
      method: "POST",
      headers: { origin: status.url.replace(/\/$/, "") },
      body: JSON.stringify({ token }),
      tls: { ca },
    });
    expect(login.status).toBe(204);
    expect(login.headers.get("set-cookie")).toContain("; Secure");
    await local.close();
  });

  test("the certificate is made once: a restart serves the same fingerprint", async () => {
    const config = `[system.remote]\nenabled = true\nlisten = "127.0.0.1:0"\ntls = "self-signed"\n`;
    const first = await start(config);
    const c1 = await first.client();
    const fp = (await until(async () => (await c1.getRemoteStatus()).fingerprint, { what: "the fingerprint" })) as string;
    await c1.close();
    await first.stop();
    const again = await startDaemon({ home: first.home });
    started.push(again);
    const c2 = await again.client();
    expect(await until(async () => (await c2.getRemoteStatus()).fingerprint, { what: "the fingerprint after restart" })).toBe(fp);
    await c2.close();
  });
});
