// `remote enable|disable`: the `[system.remote]` table of config.toml
// (docs/remote.md), edited in place through src/config so that comments and
// layout stay, validated before it is written, and never written half.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { parse } from "smol-toml";
import { writeFileAtomicSync } from "../../base/atomic-file.ts";
import type { HomePaths } from "../../base/home-paths.ts";
import { parseConfigText } from "../../config/load.ts";
import { patchToml } from "../../config/patch.ts";
import { CONFIG_TEMPLATE } from "../../config/template.ts";
import { isLoopbackHost, parseListenAddress, type ListenAddress } from "../../base/listen-address.ts";

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => v !== null && typeof v === "object" && !Array.isArray(v);

export interface RemoteChange {
  enabled: boolean;
  listen?: string;
  /** `self-signed`, or `off` to drop every TLS key. */
  tls?: string;
  tlsCert?: string;
  tlsKey?: string;
}

/** The listener's address when `listen` is unset (docs/remote.md). */
export const DEFAULT_LISTEN = "127.0.0.1:6690";

/** `--listen`, parsed as the daemon parses `listen`; throws with the form it wants. */
function parseListen(text: string): ListenAddress {
  const parsed = parseListenAddress(text);
  if (typeof parsed === "string") throw new Error(`--listen '${text}': ${parsed}`);
  return parsed;
}

/** The new `[system.remote]` table from the current one and a change; throws on a bad or unsafe one. */
export function remoteTableAfter(current: Table, change: RemoteChange): Table {
  const next: Table = { ...current, enabled: change.enabled };
  if (!change.enabled) return next;
  if (change.listen !== undefined) {
    parseListen(change.listen);
    next.listen = change.listen;
  }
  if (change.tls !== undefined && (change.tlsCert !== undefined || change.tlsKey !== undefined)) {
    throw new Error("--tls and --tls-cert/--tls-key exclude each other: a self-signed certificate or your own");
  }
  if (change.tls !== undefined) {
    if (change.tls !== "self-signed" && change.tls !== "off") throw new Error(`--tls takes self-signed or off, not '${change.tls}'`);
    delete next.tls_cert;
    delete next.tls_key;
    if (change.tls === "self-signed") next.tls = "self-signed";
    else delete next.tls;
  }
  if (change.tlsCert !== undefined || change.tlsKey !== undefined) {
    if (change.tlsCert === undefined || change.tlsKey === undefined)
      throw new Error("--tls-cert and --tls-key go together: the certificate and its private key (PEM files)");
    delete next.tls;
    next.tls_cert = readablePem(change.tlsCert, "--tls-cert");
    next.tls_key = readablePem(change.tlsKey, "--tls-key");
  }
  const listen = typeof next.listen === "string" ? next.listen : DEFAULT_LISTEN;
  const tls = next.tls === "self-signed" || (next.tls_cert !== undefined && next.tls_key !== undefined);
  if (!tls && !isLoopbackHost(parseListen(listen).host)) {
    throw new Error(
      `${listen} is not a loopback address, and a remote listener off loopback needs TLS: add --tls self-signed, or --tls-cert and --tls-key (docs/remote.md)`,
    );
  }
  return next;
}

/** An absolute path to a readable file, or a clear error naming the option. */
function readablePem(path: string, option: string): string {
  const full = resolve(path);
  try {
    readFileSync(full);
  } catch (err) {
    throw new Error(`${option} ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return full;
}

export interface RemoteEdit {
  /** The new `[system.remote]` table. */
  remote: Table;
  /** Puts config.toml back as it was before the edit (when the daemon refused the change). */
  undo(): void;
}

/** Applies the change to config.toml (the template when there is none yet). */
export function editRemoteConfig(paths: HomePaths, change: RemoteChange): RemoteEdit {
  const existed = existsSync(paths.config);
  const text = existed ? readFileSync(paths.config, "utf8") : CONFIG_TEMPLATE;
  parseConfigText(text); // a config.toml that is already broken is reported as it is, not rewritten
  const doc = parse(text) as Table;
  const system = isTable(doc.system) ? doc.system : {};
  const remote = remoteTableAfter(isTable(system.remote) ? system.remote : {}, change);
  const nextText = patchToml(text, { ...doc, system: { ...system, remote } });
  parseConfigText(nextText);
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(paths.config, nextText, { mode: 0o600 });
  return {
    remote,
    undo: () => (existed ? writeFileAtomicSync(paths.config, text, { mode: 0o600 }) : rmSync(paths.config, { force: true })),
  };
}
