// Where everything of a daemon home lives (docs/home.md#layout). Pure path logic,
// shared by the daemon, by CLI clients that need the socket or port file, and by
// components announcing their port.
// node:path and node:os are required when first needed, and not at all by a
// client command on a plain POSIX home (loading node:path costs a short command
// about 0.5 ms and 3 MiB, issue 11); the results are the same either way.
import type * as NodeOs from "node:os";
import type * as NodePath from "node:path";

const nodePath = (): typeof NodePath => require("node:path");
const nodeOs = (): typeof NodeOs => require("node:os");

/**
 * An absolute POSIX path that resolve() returns unchanged: no empty, `.` or
 * `..` segment, no trailing slash. (No regular expression: compiling one
 * costs a short command more than this check.)
 */
function isPlainAbsolute(path: string): boolean {
  if (process.platform === "win32" || path.length < 2 || path[0] !== "/") return false;
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === "" || segment === "." || segment === "..") return false;
  }
  return true;
}

/** join(home, ...parts) for parts that are plain names (no separator, not `.` or `..`), `plain` telling whether home is plain absolute. */
function under(home: string, plain: boolean, ...parts: string[]): string {
  return plain ? `${home}/${parts.join("/")}` : nodePath().join(home, ...parts);
}

/** The loopback TCP port the daemon asks for first (docs/protocol.md#connecting). */
export const DEFAULT_TCP_PORT = 6688;

/** `$CRABTALK_HOME` if set and non-empty, else `~/.crabtalk`; always absolute. */
export function resolveHome(env: Record<string, string | undefined> = process.env): string {
  const explicit = env.CRABTALK_HOME;
  if (explicit) return isPlainAbsolute(explicit) ? explicit : nodePath().resolve(explicit);
  return defaultHome(env);
}

/**
 * The user's home directory (`$HOME`): where the daemon and whatever it runs
 * work when nothing names a directory. Never the crabtalk home, which the tool
 * sandbox hides (docs/security.md).
 */
export function userHome(env: Record<string, string | undefined> = process.env): string {
  const base = env.HOME || nodeOs().homedir();
  return isPlainAbsolute(base) ? base : nodePath().resolve(base);
}

/** `~/.crabtalk`: the home when `$CRABTALK_HOME` is not set. */
export function defaultHome(env: Record<string, string | undefined> = process.env): string {
  const base = env.HOME || nodeOs().homedir();
  return under(base, isPlainAbsolute(base), ".crabtalk");
}

/** Every path of the docs/home.md#layout table. */
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
  runDir: string;
  socket: string;
  portFile: string;
  /** `run/crabtalk.pid` (ours: lets `crabtalk stop` find a background daemon). */
  pidFile: string;
  /** `run/crabtalk.version` (ours: lets a client see it talks to an older daemon). */
  versionFile: string;
  logsDir: string;
  daemonLog: string;
  tokensDir: string;
  /** `remote/` (ours, docs/remote.md): tokens of remote clients, the self-signed certificate. 0700. */
  remoteDir: string;
  /** `remote/tokens.json`: names, scopes and SHA-256 hashes of remote tokens, never a token. */
  remoteTokens: string;
  history: string;
  /** `usage/ledger.jsonl` (ours, docs/usage.md): one line per finished model round. */
  usageLedger: string;
  /** `index/conversations.json` (ours, docs/search.md): the conversation search index. */
  searchIndex: string;
  /** `run/<component>.port` (docs/mcp.md#components). */
  componentPort(component: string): string;
  /** `logs/<service>.log`. */
  serviceLog(service: string): string;
  /** `tokens/<mcp>.json`. */
  tokenFile(mcp: string): string;
}

export function homePaths(home: string): HomePaths {
  const plain = isPlainAbsolute(home);
  const at = (...parts: string[]) => under(home, plain, ...parts);
  // Names that come from elsewhere are joined (and normalised) by node:path.
  const join = (...parts: string[]) => nodePath().join(home, ...parts);
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
    runDir: at("run"),
    socket: at("run", "crabtalk.sock"),
    portFile: at("run", "crabtalk.port"),
    pidFile: at("run", "crabtalk.pid"),
    versionFile: at("run", "crabtalk.version"),
    logsDir: at("logs"),
    daemonLog: at("logs", "daemon.log"),
    tokensDir: at("tokens"),
    remoteDir: at("remote"),
    remoteTokens: at("remote", "tokens.json"),
    history: at("history"),
    usageLedger: at("usage", "ledger.jsonl"),
    searchIndex: at("index", "conversations.json"),
    componentPort: (component) => join("run", `${component}.port`),
    serviceLog: (service) => join("logs", `${service}.log`),
    tokenFile: (mcp) => join("tokens", `${mcp}.json`),
  };
}
