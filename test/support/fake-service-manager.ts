// Fake `systemctl` and `launchctl` for service tests: first on PATH, they
// record every call (one JSON array per line) and do what the real ones do
// for a user service: start the program a definition names, with the
// definition's working directory and environment only, and stop it again.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeServiceManager {
  /** Put this first on PATH. */
  bin: string;
  /** Every recorded call, in order. */
  calls(): string[][];
  /** Env for the CLI: PATH with the fakes first, the state dir for the fakes. */
  env(extra?: Record<string, string>): Record<string, string>;
}

// Runs under bun (absolute shebang). Kept small: parse the definition, spawn, record.
const FAKE = (kind: "systemctl" | "launchctl" | "broken-systemctl") => `#!${process.execPath}
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
const state = process.env.FAKE_SM_STATE;
const args = process.argv.slice(2);
appendFileSync(join(state, "calls.log"), JSON.stringify(args) + "\\n");
const kind = ${JSON.stringify(kind)};
if (kind === "broken-systemctl") {
  process.stderr.write("Failed to connect to bus: No medium found\\n");
  process.exit(1);
}
const pidFile = (name) => join(state, name + ".pid");
function start(name, argv, cwd, env) {
  const child = spawn(argv[0], argv.slice(1), { cwd, env: { HOME: process.env.HOME, ...env }, detached: true, stdio: "ignore" });
  child.unref();
  writeFileSync(pidFile(name), String(child.pid));
}
async function stop(name) {
  if (!existsSync(pidFile(name))) return false;
  const pid = Number(readFileSync(pidFile(name), "utf8"));
  rmSync(pidFile(name));
  try { process.kill(pid, "SIGTERM"); } catch { return true; }
  for (let i = 0; i < 200; i++) {
    try { process.kill(pid, 0); } catch { return true; }
    await Bun.sleep(25);
  }
  return true;
}
const unquote = (s) => s.replace(/\\$\\$/g, "$").replace(/%%/g, "%").replace(/\\\\(.)/g, "$1");
const words = (line) => [...line.matchAll(/"((?:[^"\\\\]|\\\\.)*)"|(\\S+)/g)].map((m) => unquote(m[1] ?? m[2]));
// Real systemd refuses a unit its own parser refuses: so does this fake, by
// asking systemd's validator (Debian package systemd; no running systemd needed).
function verify(path) {
  const r = spawnSync("systemd-analyze", ["verify", path], { encoding: "utf8" });
  if (r.error) {
    process.stderr.write("fake systemctl: cannot check the unit without systemd-analyze (Debian package systemd): " + r.error.message + "\\n");
    process.exit(1);
  }
  if (r.status !== 0) {
    process.stderr.write("Failed to enable unit: " + path + " is refused by systemd-analyze verify:\\n" + r.stdout + r.stderr);
    process.exit(1);
  }
}
if (kind === "systemctl") {
  if (args[0] !== "--user") { process.stderr.write("fake systemctl: only --user\\n"); process.exit(1); }
  const [verb, ...rest] = args.slice(1);
  if (verb === "show-environment" || verb === "daemon-reload") process.exit(0);
  const unit = rest.filter((a) => a !== "--now").at(-1);
  if (verb === "enable" && rest.includes("--now")) {
    const dir = join(process.env.XDG_CONFIG_HOME, "systemd", "user");
    verify(join(dir, unit));
    const text = readFileSync(join(dir, unit), "utf8");
    const value = (key) => [...text.matchAll(new RegExp("^" + key + "=(.*)$", "gm"))].map((m) => m[1]);
    const env = Object.fromEntries(value("Environment").map((v) => words(v)[0]).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
    if (!existsSync(pidFile(unit))) start(unit, words(value("ExecStart")[0]), value("WorkingDirectory")[0].replace(/%%/g, "%"), env);
    process.exit(0);
  }
  if (verb === "disable") { if (rest.includes("--now")) await stop(unit); process.exit(0); }
  process.stderr.write("fake systemctl: unknown call " + args.join(" ") + "\\n");
  process.exit(1);
}
const [verb, ...rest] = args;
const strings = (xml) => [...xml.matchAll(/<string>([^<]*)<\\/string>/g)].map((m) => m[1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
const section = (xml, key, tag) => new RegExp("<key>" + key + "</key>\\\\s*<" + tag + ">([\\\\s\\\\S]*?)</" + tag + ">").exec(xml)?.[1] ?? "";
if (verb === "bootstrap") {
  const xml = readFileSync(rest[1], "utf8");
  const label = section(xml, "Label", "string");
  const argv = strings(section(xml, "ProgramArguments", "array"));
  const envXml = section(xml, "EnvironmentVariables", "dict");
  const keys = [...envXml.matchAll(/<key>([^<]*)<\\/key>/g)].map((m) => m[1]);
  const env = Object.fromEntries(keys.map((k, i) => [k, strings(envXml)[i]]));
  start(label, argv, section(xml, "WorkingDirectory", "string"), env);
  process.exit(0);
}
if (verb === "bootout") process.exit((await stop(rest[0].split("/").at(-1))) ? 0 : 3);
if (verb === "enable" || verb === "disable") process.exit(0);
process.stderr.write("fake launchctl: unknown call " + args.join(" ") + "\\n");
process.exit(1);
`;

export function fakeServiceManager(options: { systemd?: "working" | "no-bus" } = {}): FakeServiceManager {
  const root = mkdtempSync(join(tmpdir(), "crabtalk-fake-sm-"));
  const bin = join(root, "bin");
  const state = join(root, "state");
  mkdirSync(bin);
  mkdirSync(state);
  const install = (name: string, text: string) => {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  };
  install("systemctl", FAKE(options.systemd === "no-bus" ? "broken-systemctl" : "systemctl"));
  install("launchctl", FAKE("launchctl"));
  writeFileSync(join(state, "calls.log"), "");
  return {
    bin,
    calls: () =>
      readFileSync(join(state, "calls.log"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[]),
    env: (extra = {}) => ({ PATH: `${bin}:${process.env.PATH}`, FAKE_SM_STATE: state, ...extra }),
  };
}
