/**
 * Secret redaction for replies and logs, and its inverse for input
 * (docs/config.md#the-config-as-json): a client may send back what it was shown and the daemon
 * keeps the stored secret in place of `<redacted>`.
 */
import { ConfigError } from "./error.ts";
import { isSingleReference } from "./expand.ts";
import { agentConfigSchema, memorySchema, tasksSchema } from "./schema.ts";
import { withoutCredentials } from "../base/url-credentials.ts";

export const REDACTED = "<redacted>";

/** Provider keys holding credentials (docs/config.md#the-config-as-json). */
export const PROVIDER_SECRET_KEYS = ["api_key", "secret_key", "access_key"] as const;

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function tableOr(value: unknown): Table {
  return isTable(value) ? value : {};
}

/**
 * A secret value as shown to clients. A lone `${NAME}` reference names a
 * variable rather than holding a secret, and an empty string holds nothing,
 * so both are shown as they are.
 */
function redactValue(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return value;
  if (typeof value === "string" && isSingleReference(value)) return value;
  return REDACTED;
}

/** A provider table with its credentials redacted (ProviderInfo.config, GetConfig). */
export function redactProvider(provider: Table): Table {
  const out: Table = { ...provider };
  for (const key of PROVIDER_SECRET_KEYS) {
    if (key in out) out[key] = redactValue(out[key]);
  }
  return out;
}

/** Every value of an env table redacted (`[env]`, an MCP server's `env`). */
export function redactEnv(env: Table): Table {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, redactValue(v)]));
}

/** An MCP server table with its `env` values redacted. */
export function redactMcp(server: Table): Table {
  return isTable(server.env) ? { ...server, env: redactEnv(server.env) } : { ...server };
}

function mapTables(tables: Table, f: (t: Table) => Table): Record<string, Table> {
  return Object.fromEntries(Object.entries(tables).map(([k, v]) => [k, isTable(v) ? f(v) : {}]));
}

/** The GetConfig JSON (docs/config.md#the-config-as-json). Unknown top-level keys of the document are passed through. */
interface ConfigJson {
  provider: Record<string, Table>;
  mcps: Record<string, Table>;
  system: { crab: Table; tasks: Table; memory: Table; [key: string]: unknown };
  agents: Record<string, Table>;
  env: Table;
  disabled: { providers: unknown; mcps: unknown; skills: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * The raw (unexpanded) document as the docs/config.md#the-config-as-json JSON: every section present,
 * `[system.*]` filled with defaults under the written values, secrets redacted.
 */
export function redactConfigJson(raw: Record<string, unknown>): ConfigJson {
  const system = tableOr(raw.system);
  const disabled = tableOr(raw.disabled);
  return {
    ...raw,
    provider: mapTables(tableOr(raw.provider), redactProvider),
    mcps: mapTables(tableOr(raw.mcps), redactMcp),
    system: {
      ...system,
      crab: { ...agentConfigSchema.parse({}), ...tableOr(system.crab) },
      tasks: { ...tasksSchema.parse({}), ...tableOr(system.tasks) },
      memory: { ...memorySchema.parse({}), ...tableOr(system.memory) },
    },
    agents: mapTables(tableOr(raw.agents), (a) => ({ ...a })),
    env: redactEnv(tableOr(raw.env)),
    disabled: { providers: [], mcps: [], skills: [], ...disabled },
    ...(isTable(raw.hub) ? { hub: redactHub(raw.hub) } : {}),
  };
}

/** `[hub] url` may carry a token (`https://user:token@host/hub`): it never leaves the daemon. */
function redactHub(hub: Table): Table {
  return typeof hub.url === "string" ? { ...hub, url: withoutCredentials(hub.url) } : { ...hub };
}

const LOG_SECRET_KEYS = new Set<string>(PROVIDER_SECRET_KEYS);

/**
 * Redact secrets anywhere in a value, for log lines: the provider secret keys
 * at any depth and every value of any `env` table.
 */
export function redactSecrets<T>(value: T): T {
  return redactDeep(value) as T;
}

// Objects are rebuilt with Object.fromEntries throughout: assigning a
// client-supplied "__proto__" key would change the prototype instead.
function redactDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactDeep);
  if (!isTable(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (LOG_SECRET_KEYS.has(k)) return [k, redactValue(v)];
      if (k === "env" && isTable(v)) return [k, redactEnv(v)];
      return [k, redactDeep(v)];
    }),
  );
}

function missing(what: string): ConfigError {
  return new ConfigError(`${what} is ${REDACTED} but no value is stored`, 400);
}

/** Replace `<redacted>` credentials of one provider with the stored ones (SetProvider). */
export function restoreProviderSecrets(name: string, incoming: Table, stored: Table | undefined): Table {
  const out: Table = { ...incoming };
  for (const key of PROVIDER_SECRET_KEYS) {
    if (out[key] !== REDACTED) continue;
    const kept = stored !== undefined && Object.hasOwn(stored, key) ? stored[key] : undefined;
    if (typeof kept !== "string") throw missing(`provider '${name}': ${key}`);
    out[key] = kept;
  }
  return out;
}

/** Replace `<redacted>` values of an env table with the stored ones. */
function restoreEnv(incoming: Table, stored: Table | undefined, label: (key: string) => string): Table {
  return Object.fromEntries(
    Object.entries(incoming).map(([k, v]) => {
      if (v !== REDACTED) return [k, v];
      const kept = stored !== undefined && Object.hasOwn(stored, k) ? stored[k] : undefined;
      if (typeof kept !== "string") throw missing(label(k));
      return [k, kept];
    }),
  );
}

/** Replace `<redacted>` env values of one MCP server with the stored ones (SetLocalMcps). */
export function restoreMcpSecrets(name: string, incoming: Table, stored: Table | undefined): Table {
  if (!isTable(incoming.env)) return { ...incoming };
  const storedEnv = isTable(stored?.env) ? stored.env : undefined;
  return { ...incoming, env: restoreEnv(incoming.env, storedEnv, (k) => `mcp '${name}': env.${k}`) };
}

function restoreTables(incoming: unknown, stored: unknown, restore: (name: string, incoming: Table, stored: Table | undefined) => Table): unknown {
  if (!isTable(incoming)) return incoming;
  const current = tableOr(stored);
  return Object.fromEntries(
    Object.entries(incoming).map(([name, t]) => {
      if (!isTable(t)) return [name, t];
      const kept = Object.hasOwn(current, name) ? current[name] : undefined;
      return [name, restore(name, t, isTable(kept) ? kept : undefined)];
    }),
  );
}

/**
 * SetConfig input with each `<redacted>` secret replaced by the value stored
 * under the same key in `current` (the raw document). Throws a 400
 * ConfigError when there is nothing to keep. Returns a new object.
 */
export function restoreRedacted(incoming: Record<string, unknown>, current: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...incoming };
  if ("provider" in incoming) out.provider = restoreTables(incoming.provider, current.provider, restoreProviderSecrets);
  if ("mcps" in incoming) out.mcps = restoreTables(incoming.mcps, current.mcps, restoreMcpSecrets);
  if (isTable(incoming.env)) {
    const storedEnv = isTable(current.env) ? current.env : undefined;
    out.env = restoreEnv(incoming.env, storedEnv, (k) => `env '${k}': value`);
  }
  // A hub url shown with its credentials redacted and sent back unchanged keeps the stored one.
  if (isTable(incoming.hub) && typeof incoming.hub.url === "string" && incoming.hub.url.includes(REDACTED)) {
    const stored = isTable(current.hub) ? current.hub.url : undefined;
    if (typeof stored !== "string" || withoutCredentials(stored) !== incoming.hub.url) throw missing("hub url");
    out.hub = { ...incoming.hub, url: stored };
  }
  return out;
}
