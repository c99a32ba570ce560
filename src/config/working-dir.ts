// An agent's `cwd` key (docs/config.md): where its runs work when the client
// names no directory. `~` is the user's home; the directory must exist, so a
// typo is a config error at start or reload instead of failing every tool call.
import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { userHome } from "../base/home-paths.ts";
import { ConfigError } from "./error.ts";
import type { Env } from "./expand.ts";
import type { DaemonConfig } from "./schema.ts";

/** `~` and `~/x` against the user's home; anything else as written. */
function expandTilde(path: string, env: Env): string {
  if (path === "~") return userHome(env);
  if (path.startsWith("~/")) return join(userHome(env), path.slice(2));
  return path;
}

/**
 * The absolute directory a `cwd` value names, or a ConfigError starting with
 * `where` (`config.toml: system.crab.cwd`) that says what is wrong.
 */
export function resolveWorkingDir(value: string, env: Env, where: string): string {
  const expanded = expandTilde(value.trim(), env);
  if (expanded === "") throw new ConfigError(`${where}: must name a directory`);
  if (!isAbsolute(expanded)) throw new ConfigError(`${where}: '${value}' must be an absolute path or start with ~/`);
  const path = resolve(expanded);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new ConfigError(`${where}: no directory at '${path}'`);
  }
  if (!isDir) throw new ConfigError(`${where}: '${path}' is not a directory`);
  return path;
}

/** The `cwd` keys of config.toml's agents ([system.crab], deprecated [agents.*]) name existing directories. */
export function checkAgentCwds(config: DaemonConfig, env: Env, source = "config.toml"): void {
  const agents: [string, string | undefined][] = [
    ["system.crab.cwd", config.system.crab.cwd],
    ...Object.entries(config.agents).map(([name, a]): [string, string | undefined] => [`agents.${name}.cwd`, a.cwd]),
  ];
  for (const [key, value] of agents) if (value !== undefined) resolveWorkingDir(value, env, `${source}: ${key}`);
}
