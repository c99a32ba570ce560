// `crabtalk remote enable|status|url|pair|disable` against a real daemon: the
// listener comes up at the address status reports, pairing prints a link whose
// code is only in the #fragment (and works once), --qr draws that link, and
// disable closes it (docs/remote.md#the-cli).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";
import { decodeQr } from "../support/qr-decode.ts";
import { bearer, openWs, type WsChannel } from "../support/remote.ts";
import { until } from "../support/until.ts";
import { QUIET_ZONE } from "../../src/cli/qr/terminal.ts";

// Each step runs a handful of CLI processes one after the other: room for a loaded machine.
setDefaultTimeout(60_000);

let s: FakeSetup;
/** The listener's status once enabled, and the socket open with a token, shared by the steps below. */
let st: Status;
let ws: WsChannel;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(async () => {
  await s.stop();
});

interface Status {
  enabled: boolean;
  listen: string;
  url: string;
  tls: boolean;
  fingerprint: string;
  connections: { token_name: string; count: number }[];
  error: string;
}
const status = async (): Promise<Status> => JSON.parse((await s.cli(["remote", "status", "--json"])).stdout);

/** The pairing code of a link: what its #fragment carries. */
function codeOf(link: URL): string {
  const fragment = link.hash.slice(1);
  return new URLSearchParams(fragment).get("pair") ?? fragment;
}

/** The modules of the QR block printed between two lines of `pair --qr`'s output. */
function qrModules(lines: string[]): boolean[][] {
  const grid: boolean[][] = [];
  for (const line of lines) {
    const chars = [...line];
    grid.push(chars.map((c) => c === "▀" || c === "█"));
    grid.push(chars.map((c) => c === "▄" || c === "█"));
  }
  const size = grid[0]!.length - 2 * QUIET_ZONE;
  return grid.slice(QUIET_ZONE, QUIET_ZONE + size).map((row) => row.slice(QUIET_ZONE, QUIET_ZONE + size));
}

test("off by default: status says so, url and pair say how to turn it on", async () => {
  const off = await s.cli(["remote", "status"]);
  expect(off).toMatchObject({ code: 0, stdout: "remote access: off (crabtalk remote enable turns it on)\n" });
  expect(await status()).toMatchObject({ enabled: false, listen: "", url: "" });
  const url = await s.cli(["remote", "url"]);
  expect(url.code).toBe(1);
  expect(url.stderr).toContain("remote access is off: crabtalk remote enable turns it on");
  const pair = await s.cli(["remote", "pair"]);
  expect(pair.code).toBe(1);
  expect(pair.stderr).toContain("(crabtalk remote enable turns it on)");
});

test("enable: status and url show the address it listens on", async () => {
  const on = await s.cli(["remote", "enable", "--listen", "127.0.0.1:0"]);
  expect(on.code).toBe(0);
  st = await status();
  expect(st).toMatchObject({ enabled: true, tls: false, fingerprint: "", error: "", connections: [] });
  expect(st.listen).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(st.listen).not.toBe("127.0.0.1:0");
  expect(st.url).toBe(`http://${st.listen}/`);
  expect(on.stdout).toContain(`remote access on: ${st.url}`);

  const text = await s.cli(["remote", "status"]);
  expect(text.stdout).toMatch(/^remote access: +on$/m);
  expect(text.stdout).toContain(`address:       ${st.listen}`);
  expect(text.stdout).toContain(`url:           ${st.url}`);
  expect(text.stdout).toMatch(/^tls: +no \(loopback only\)$/m);
  expect(text.stdout).toMatch(/^connections: +none$/m);
  expect((await s.cli(["remote", "url"])).stdout).toBe(`${st.url}\n`);
  expect((await fetch(st.url)).status).toBe(200); // the console's page: it really listens there
});

test("status shows an open remote connection under its token's name", async () => {
  const token = (await s.cli(["tokens", "create", "watcher", "--scope", "read"])).stdout.trim();
  ws = await openWs(`ws://${st.listen}/ws`, bearer(token));
  expect((await status()).connections).toEqual([{ token_name: "watcher", count: 1 }]);
  expect((await s.cli(["remote", "status"])).stdout).toMatch(/^connections: +watcher 1$/m);
});

test("pair prints a link whose code is only after '#', and the link works once", async () => {
  const pair = await s.cli(["remote", "pair", "--name", "phone"]);
  expect(pair.code).toBe(0);
  const linkText = /^ {2}(\S+)$/m.exec(pair.stdout)?.[1];
  expect(linkText).toBeDefined();
  const link = new URL(linkText!);
  const code = codeOf(link);
  expect(code.length).toBeGreaterThanOrEqual(16);
  expect(`${link.origin}${link.pathname}${link.search}`).toBe(st.url);
  expect(link.href.indexOf(code)).toBeGreaterThan(link.href.indexOf("#"));
  expect(pair.stdout).toMatch(/^Open this link on the new device before \d{4}-\d\d-\d\d \d\d:\d\d; it works once:$/m);
  expect(pair.stdout).toContain("It becomes the token 'phone' (scope operate): crabtalk tokens revoke phone withdraws it.");
  const exchange = () =>
    fetch(new URL("/pair", st.url), { method: "POST", headers: { origin: link.origin, "content-type": "application/json" }, body: JSON.stringify({ code }) });
  const first = await exchange();
  expect(first.status).toBe(200);
  expect(await first.json()).toMatchObject({ name: "phone", scope: "operate" });
  expect((await exchange()).status).toBe(401);
  const names = (JSON.parse((await s.cli(["tokens", "list", "--json"])).stdout) as { name: string; scope: string }[]).map((t) => [t.name, t.scope]);
  expect(names.sort()).toEqual([
    ["phone", "operate"],
    ["watcher", "read"],
  ]);
});

test("pair --qr draws the link as a QR code that reads back to it", async () => {
  const qr = await s.cli(["remote", "pair", "--name", "tablet", "--scope", "read", "--qr"]);
  expect(qr.code).toBe(0);
  const lines = qr.stdout.split("\n");
  const at = lines.findIndex((l) => /^ {2}\S+$/.test(l));
  const end = lines.findIndex((l) => l.startsWith("It becomes the token 'tablet' (scope read)"));
  const block = lines.slice(at + 1, end);
  expect(block.length).toBeGreaterThan(10);
  expect(block.every((l) => /^[ ▀▄█]+$/u.test(l))).toBe(true);
  expect(decodeQr(qrModules(block)).text).toBe(lines[at]!.trim());
  expect(new URL(lines[at]!.trim()).hash.length).toBeGreaterThan(16);
});

test("disable closes the listener and its connections", async () => {
  const off = await s.cli(["remote", "disable"]);
  expect(off).toMatchObject({ code: 0, stdout: "remote access disabled\n" });
  await until(() => ws.closed, { what: "the open remote connection to close at disable" });
  expect(await status()).toMatchObject({ enabled: false, url: "" });
  expect(
    await fetch(st.url).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");
});

test("an address it cannot bind is refused by the daemon's reload, and config.toml is put back", async () => {
  const config = join(s.daemon.home, "config.toml");
  const before = readFileSync(config, "utf8");
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const on = await s.cli(["remote", "enable", "--listen", `127.0.0.1:${taken.port}`]);
    expect(on.code).toBe(1);
    expect(on.stderr).toContain(`cannot listen on 127.0.0.1:${taken.port}`);
    expect(on.stderr).toContain("config.toml is left as it was");
    expect(readFileSync(config, "utf8")).toBe(before);
    expect(await status()).toMatchObject({ enabled: false, error: "" });
  } finally {
    taken.stop(true);
  }
});
