/**
 * The daemon's home directory: where it is, what lives in it, and bringing an
 * old or empty one up to the current layout on start (daemon.md §1, §1.1).
 */
import fs from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "smol-toml";
import { CONFIG_TEMPLATE } from "./config/template.ts";
import { appendTables, removeTables } from "./config/toml-edit.ts";
import { writeFileAtomic } from "./config/write.ts";

/** `$CRABTALK_HOME` if set and non-empty, else `~/.crabtalk`; always absolute. */
export function resolveHome(env: Record<string, string | undefined> = process.env): string {
  const explicit = env.CRABTALK_HOME;
  if (explicit) return resolve(explicit);
  return join(env.HOME || homedir(), ".crabtalk");
}

/** Every path of the §1 table. */
export interface HomePaths {
  home: string;
  config: string;
  crabMd: string;
  localDir: string;
  localManifest: string;
  localAgents: string;
  localSkills: string;
  packages: string;
  cacheRepos: string;
  hub: string;
  sessions: string;
  memoryDir: string;
  memoryIndex: string;
  memoryEntries: string;
  crons: string;
  cronsTmp: string;
  runDir: string;
  socket: string;
  portFile: string;
  /** `run/crabtalk.pid` (ours: lets `crabtalk stop` find a background daemon). */
  pidFile: string;
  logsDir: string;
  daemonLog: string;
  tokensDir: string;
  history: string;
  /** `run/<component>.port` (§14.4). */
  componentPort(component: string): string;
  /** `logs/<service>.log`. */
  serviceLog(service: string): string;
  /** `tokens/<mcp>.json`. */
  tokenFile(mcp: string): string;
}

export function homePaths(home: string): HomePaths {
  const at = (...parts: string[]) => join(home, ...parts);
  return {
    home,
    config: at("config.toml"),
    crabMd: at("Crab.md"),
    localDir: at("local"),
    localManifest: at("local", "CrabTalk.toml"),
    localAgents: at("local", "agents"),
    localSkills: at("local", "skills"),
    packages: at("packages"),
    cacheRepos: at(".cache", "repos"),
    hub: at("hub"),
    sessions: at("sessions"),
    memoryDir: at("memory"),
    memoryIndex: at("memory", "MEMORY.md"),
    memoryEntries: at("memory", "entries"),
    crons: at("crons.toml"),
    cronsTmp: at("crons.toml.tmp"),
    runDir: at("run"),
    socket: at("run", "crabtalk.sock"),
    portFile: at("run", "crabtalk.port"),
    pidFile: at("run", "crabtalk.pid"),
    logsDir: at("logs"),
    daemonLog: at("logs", "daemon.log"),
    tokensDir: at("tokens"),
    history: at("history"),
    componentPort: (component) => at("run", `${component}.port`),
    serviceLog: (service) => at("logs", `${service}.log`),
    tokenFile: (mcp) => at("tokens", `${mcp}.json`),
  };
}

export type HomeLog = (message: string) => void;

type Table = Record<string, unknown>;

function isNonEmptyTable(value: unknown): value is Table {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0;
}

function isTable(value: unknown): value is Table {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function readText(path: string): string {
  return fs.existsSync(path) ? fs.readFileSync(path, "utf8") : "";
}

/** One migration step: failures are reported and start goes on (§1.1). */
function step(log: HomeLog, what: string, run: () => void): void {
  try {
    run();
  } catch (err) {
    log(`home migration: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Rename `from` to `to` when `from` exists and `to` does not. */
function moveIfAbsent(from: string, to: string, log: HomeLog): void {
  if (!fs.existsSync(from) || fs.existsSync(to)) return;
  fs.renameSync(from, to);
  log(`home migration: moved ${from} to ${to}`);
}

/** Deprecated `[mcps]`/`[agents]` of config.toml go to the local manifest (§3.8). */
function moveManifestTables(p: HomePaths, log: HomeLog): void {
  if (!fs.existsSync(p.config)) return;
  const configText = fs.readFileSync(p.config, "utf8");
  const config = parse(configText) as Table;
  const manifestText = readText(p.localManifest);
  const manifest = parse(manifestText) as Table;
  const moved: Table = {};
  for (const key of ["mcps", "agents"]) {
    if (isNonEmptyTable(config[key]) && !isNonEmptyTable(manifest[key])) moved[key] = config[key];
  }
  const keys = Object.keys(moved);
  if (keys.length === 0) return;
  // Manifest first: a crash in between leaves the tables in both files, never in neither.
  fs.mkdirSync(p.localDir, { recursive: true });
  writeFileAtomic(p.localManifest, appendTables(manifestText, moved));
  writeFileAtomic(p.config, removeTables(configText, keys));
  log(`home migration: moved [${keys.join("], [")}] from config.toml to ${p.localManifest}`);
}

/** `[disabled]` is read from config.toml only; bring one over from the manifest. */
function moveDisabledTable(p: HomePaths, log: HomeLog): void {
  if (!fs.existsSync(p.config) || !fs.existsSync(p.localManifest)) return;
  const manifestText = fs.readFileSync(p.localManifest, "utf8");
  const manifest = parse(manifestText) as Table;
  if (!isTable(manifest.disabled)) return;
  const configText = fs.readFileSync(p.config, "utf8");
  const config = parse(configText) as Table;
  if ("disabled" in config) return;
  writeFileAtomic(p.config, appendTables(configText, { disabled: manifest.disabled }));
  writeFileAtomic(p.localManifest, removeTables(manifestText, ["disabled"]));
  log(`home migration: moved [disabled] from ${p.localManifest} to config.toml`);
}

/**
 * Bring `home` to the current layout (§1.1): old-layout migrations (each
 * only when its target is absent; failures logged, never thrown), the
 * directories the daemon writes into, and the template config. Idempotent.
 * Failing to create a directory or the config does throw: the daemon cannot
 * run without them.
 */
export function scaffoldHome(home: string, log: HomeLog): HomePaths {
  const p = homePaths(home);
  fs.mkdirSync(home, { recursive: true });

  step(log, "crab.toml to config.toml", () => moveIfAbsent(join(home, "crab.toml"), p.config, log));
  step(log, "skills/ to local/skills/", () => {
    if (!fs.existsSync(join(home, "skills"))) return;
    fs.mkdirSync(p.localDir, { recursive: true });
    moveIfAbsent(join(home, "skills"), p.localSkills, log);
  });
  step(log, "agents/ to local/agents/", () => {
    if (!fs.existsSync(join(home, "agents"))) return;
    fs.mkdirSync(p.localDir, { recursive: true });
    moveIfAbsent(join(home, "agents"), p.localAgents, log);
  });
  step(log, "[mcps]/[agents] to the local manifest", () => moveManifestTables(p, log));
  step(log, "[disabled] to config.toml", () => moveDisabledTable(p, log));

  for (const dir of [p.localAgents, p.localSkills, p.packages, p.logsDir, p.sessions]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.mkdirSync(p.runDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(p.runDir, 0o700); // mkdir's mode is masked by umask and ignored for existing dirs

  // 0600: this file is where API keys end up.
  if (!fs.existsSync(p.config)) writeFileAtomic(p.config, CONFIG_TEMPLATE, { mode: 0o600 });
  return p;
}
