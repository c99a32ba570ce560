/**
 * The daemon's home directory: where it is, what lives in it, and bringing an
 * old or empty one up to the current layout on start (docs/home.md#layout, docs/home.md#start-and-migration).
 */
import fs from "node:fs";
import { join } from "node:path";
import { homePaths, type HomePaths } from "../base/home-paths.ts";

export { homePaths, resolveHome, type HomePaths } from "../base/home-paths.ts";
import { parse } from "smol-toml";
import { CONFIG_TEMPLATE } from "../config/template.ts";
import { appendTables, removeTables } from "../config/toml-edit.ts";
import { writeFileAtomicSync } from "../base/atomic-file.ts";
import { tightenHome } from "./home-modes.ts";
import type { RuntimeLog } from "../base/runtime-log.ts";

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

/** One migration step: failures are reported and start goes on (docs/home.md#start-and-migration). */
function step(log: RuntimeLog, what: string, run: () => void): void {
  try {
    run();
  } catch (err) {
    log.warn(`home migration: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Rename `from` to `to` when `from` exists and `to` does not. */
function moveIfAbsent(from: string, to: string, log: RuntimeLog): void {
  if (!fs.existsSync(from) || fs.existsSync(to)) return;
  fs.renameSync(from, to);
  log.warn(`home migration: moved ${from} to ${to}`);
}

/** Deprecated `[mcps]`/`[agents]` of config.toml go to the local manifest (docs/packages.md#manifests). */
function moveManifestTables(p: HomePaths, log: RuntimeLog): void {
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
  writeFileAtomicSync(p.localManifest, appendTables(manifestText, moved));
  writeFileAtomicSync(p.config, removeTables(configText, keys));
  log.warn(`home migration: moved [${keys.join("], [")}] from config.toml to ${p.localManifest}`);
}

/** `[disabled]` is read from config.toml only; bring one over from the manifest. */
function moveDisabledTable(p: HomePaths, log: RuntimeLog): void {
  if (!fs.existsSync(p.config) || !fs.existsSync(p.localManifest)) return;
  const manifestText = fs.readFileSync(p.localManifest, "utf8");
  const manifest = parse(manifestText) as Table;
  if (!isTable(manifest.disabled)) return;
  const configText = fs.readFileSync(p.config, "utf8");
  const config = parse(configText) as Table;
  if ("disabled" in config) return;
  writeFileAtomicSync(p.config, appendTables(configText, { disabled: manifest.disabled }));
  writeFileAtomicSync(p.localManifest, removeTables(manifestText, ["disabled"]));
  log.warn(`home migration: moved [disabled] from ${p.localManifest} to config.toml`);
}

/**
 * Bring `home` to the current layout (docs/home.md#start-and-migration): old-layout migrations (each
 * only when its target is absent; failures logged, never thrown), the
 * directories the daemon writes into, and the template config. Idempotent.
 * Failing to create a directory or the config does throw: the daemon cannot
 * run without them.
 */
export function scaffoldHome(home: string, log: RuntimeLog): HomePaths {
  const p = homePaths(home);
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });

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
  if (!fs.existsSync(p.config)) writeFileAtomicSync(p.config, CONFIG_TEMPLATE, { mode: 0o600 });
  tightenHome(p);
  return p;
}
