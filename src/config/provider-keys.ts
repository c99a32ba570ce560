// Whether a provider's credentials resolve in the daemon, and from where —
// never the value. `crabtalk doctor` asks the daemon through ListProviders
// (docs/protocol.md): a key set only in the user's shell is not the daemon's.
import { envTableValues, expandVars, providerEnv, type Env } from "./expand.ts";
import type { ProviderConfig } from "./schema.ts";

export type KeyField = "api_key" | "access_key" | "secret_key";

/** Keys a provider of each kind needs to be called. */
export const KEY_FIELDS: Record<string, readonly KeyField[]> = {
  openai: ["api_key"],
  anthropic: ["api_key"],
  google: ["api_key"],
  azure: ["api_key"],
  bedrock: ["access_key", "secret_key"],
};

export type KeySource = "config" | "environment" | "env_table" | "";

export interface KeyStatus {
  field: KeyField;
  resolved: boolean;
  source: KeySource;
  vars: string[];
  unset: string[];
  required: boolean;
}

const REFERENCE = /\$\{([^{}]+)\}/g;

/**
 * The credential settings of one provider (as written, references unexpanded)
 * against the daemon's environment and `[env]` of config.toml. Bedrock without
 * static keys uses the AWS credential chain: nothing to report.
 */
export function providerKeyStatus(p: ProviderConfig, env: Env, envTable: Record<string, string>): KeyStatus[] {
  if (p.kind === "bedrock" && !p.access_key && !p.secret_key) return [];
  const table = envTableValues(envTable, env);
  const merged = providerEnv(envTable, env);
  const out: KeyStatus[] = [];
  for (const field of KEY_FIELDS[p.kind] ?? []) {
    // An OpenAI-compatible server on a base_url may need no key at all.
    const required = !(p.kind === "openai" && p.base_url);
    const value = p[field] ?? "";
    if (!value && !required) continue;
    const vars = [...new Set([...value.matchAll(REFERENCE)].map((m) => m[1]!))];
    const unset = vars.filter((v) => !merged[v]);
    const resolved = expandVars(value, merged) !== "";
    let source: KeySource = "";
    if (resolved) source = vars.length === 0 ? "config" : vars.some((v) => table[v]) ? "env_table" : "environment";
    out.push({ field, resolved, source, vars, unset, required });
  }
  return out;
}
