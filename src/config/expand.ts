/**
 * `${NAME}` expansion (docs/config.md#configuration). Applied when the runtime is built, on
 * a copy: the stored document keeps its references.
 */
import type { DaemonConfig, McpServerConfig, ProviderConfig } from "./schema.ts";

export type Env = Record<string, string | undefined>;

// No braces inside the name, so `${a}}` and `${{x}` stay mostly literal.
const REFERENCE = /\$\{([^{}]+)\}/g;
const SINGLE_REFERENCE = /^\$\{[^{}]+\}$/;

/** Replace each `${NAME}`; unset → "". A `$` not followed by `{` is literal. */
export function expandVars(value: string, env: Env): string {
  return value.replace(REFERENCE, (_, name: string) => env[name] ?? "");
}

/** True when the value is exactly one reference (not a secret, docs/config.md#the-config-as-json). */
export function isSingleReference(value: string): boolean {
  return SINGLE_REFERENCE.test(value);
}

const PROVIDER_STRING_FIELDS = ["api_key", "base_url", "api_version", "region", "access_key", "secret_key", "model_path"] as const;

/**
 * Expand a provider's string settings. `kind` is an enum and `models` are
 * routing keys checked for duplicates as written, so neither is expanded.
 */
function expandProvider(provider: ProviderConfig, env: Env): ProviderConfig {
  const out: ProviderConfig = { ...provider, models: [...provider.models] };
  for (const key of PROVIDER_STRING_FIELDS) {
    const v = provider[key];
    if (v !== undefined) out[key] = expandVars(v, env);
  }
  return out;
}

/** Expand an MCP server's `command`, `args`, `env` values and `url`. */
export function expandMcpServer(server: McpServerConfig, env: Env): McpServerConfig {
  return {
    ...server,
    command: expandVars(server.command, env),
    args: server.args.map((a) => expandVars(a, env)),
    env: expandTable(server.env, env),
    ...(server.url !== undefined ? { url: expandVars(server.url, env) } : {}),
  };
}

function expandTable(table: Record<string, string>, env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, expandVars(v, env)]));
}

function mapValues<T>(table: Record<string, T>, f: (v: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, f(v)]));
}

/**
 * The variables provider settings expand from: the daemon's environment, and
 * over it the non-empty `[env]` values of config.toml (themselves expanded),
 * so a daemon run as a service, which does not see the user's shell, can be
 * given its keys in config.toml (docs/config.md).
 */
export function providerEnv(envTable: Record<string, string>, env: Env): Env {
  return { ...env, ...envTableValues(envTable, env) };
}

/** The `[env]` values that are not empty once expanded. */
export function envTableValues(envTable: Record<string, string>, env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(expandTable(envTable, env)).filter(([, v]) => v !== ""));
}

/** A copy of the config with every expandable field expanded (docs/config.md#configuration). */
export function expandConfig(config: DaemonConfig, env: Env): DaemonConfig {
  const forProviders = providerEnv(config.env, env);
  return {
    ...config,
    provider: mapValues(config.provider, (p) => expandProvider(p, forProviders)),
    mcps: mapValues(config.mcps, (m) => expandMcpServer(m, env)),
    env: expandTable(config.env, env),
  };
}
