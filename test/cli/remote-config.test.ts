// `crabtalk remote enable|disable` with no daemon running: [system.remote] in
// config.toml is edited in place (comments kept), and what would be unsafe or
// unreadable is refused before anything is written (docs/remote.md#the-cli).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { runCli } from "../support/cli.ts";
import { cleanup, tempHome } from "../support/daemon.ts";

const CONFIG = `# my own notes about this daemon
[system.crab]
model = "fake-model" # the one I use
`;

let home: string;
let config: string;
beforeEach(() => {
  home = tempHome("crabtalk-remote-config-");
  config = join(home, "config.toml");
  writeFileSync(config, CONFIG);
});
afterEach(() => cleanup(home));

const remoteTable = () => (parse(readFileSync(config, "utf8")) as { system: { remote?: Record<string, unknown> } }).system.remote;

test("enable and disable edit [system.remote] and keep the file's comments", async () => {
  const on = await runCli(["remote", "enable"], { home });
  expect(on.code).toBe(0);
  expect(on.stdout).toContain(`remote access enabled in ${config} (127.0.0.1:6690); the daemon is not running`);
  expect(remoteTable()).toEqual({ enabled: true });
  expect(readFileSync(config, "utf8")).toStartWith(CONFIG);

  const tls = await runCli(["remote", "enable", "--listen", "0.0.0.0:7443", "--tls", "self-signed"], { home });
  expect(tls.code).toBe(0);
  expect(remoteTable()).toEqual({ enabled: true, listen: "0.0.0.0:7443", tls: "self-signed" });

  const off = await runCli(["remote", "disable"], { home });
  expect(off.code).toBe(0);
  expect(off.stdout).toContain(`remote access disabled in ${config}`);
  expect(remoteTable()).toEqual({ enabled: false, listen: "0.0.0.0:7443", tls: "self-signed" });
  expect(readFileSync(config, "utf8")).toContain("# my own notes about this daemon");
  expect(readFileSync(config, "utf8")).toContain('model = "fake-model" # the one I use');
});

test("--tls-cert and --tls-key are stored as absolute paths and replace a self-signed certificate", async () => {
  writeFileSync(join(home, "cert.pem"), "-----BEGIN CERTIFICATE-----\n");
  writeFileSync(join(home, "key.pem"), "-----BEGIN PRIVATE KEY-----\n");
  expect((await runCli(["remote", "enable", "--tls", "self-signed"], { home })).code).toBe(0);
  const own = await runCli(["remote", "enable", "--listen", "0.0.0.0:7443", "--tls-cert", join(home, "cert.pem"), "--tls-key", join(home, "key.pem")], {
    home,
  });
  expect(own.code).toBe(0);
  expect(remoteTable()).toEqual({ enabled: true, listen: "0.0.0.0:7443", tls_cert: join(home, "cert.pem"), tls_key: join(home, "key.pem") });
});

test("unsafe or malformed settings are refused with the reason, exit 1, and the file untouched", async () => {
  writeFileSync(join(home, "cert.pem"), "x");
  const cases: [string[], string][] = [
    [
      ["--listen", "0.0.0.0:6690"],
      "0.0.0.0:6690 is not a loopback address, and a remote listener off loopback needs TLS: add --tls self-signed, or --tls-cert and --tls-key",
    ],
    [["--listen", "nonsense"], `--listen 'nonsense': must be "host:port"`],
    [["--listen", "127.0.0.1:70000"], "--listen '127.0.0.1:70000': port must be at most 65535"],
    [["--tls", "maybe"], "--tls takes self-signed or off, not 'maybe'"],
    [["--tls-cert", join(home, "cert.pem")], "--tls-cert and --tls-key go together"],
    [["--tls-cert", join(home, "cert.pem"), "--tls-key", join(home, "missing.pem")], `--tls-key ${join(home, "missing.pem")}: cannot read it (ENOENT)`],
    [["--tls", "self-signed", "--tls-cert", "a", "--tls-key", "b"], "--tls and --tls-cert/--tls-key exclude each other"],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(["remote", "enable", ...args], { home });
    expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 1, stdout: "" });
    expect(r.stderr).toContain(message);
    expect(readFileSync(config, "utf8")).toBe(CONFIG);
  }
});

test("a broken config.toml is reported as it is, not rewritten", async () => {
  writeFileSync(config, "[system.crab\nmodel = 1\n");
  const r = await runCli(["remote", "enable"], { home });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("config.toml: syntax error at line 1");
  expect(readFileSync(config, "utf8")).toBe("[system.crab\nmodel = 1\n");
});
