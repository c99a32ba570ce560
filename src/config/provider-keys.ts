// Whether a provider's credentials resolve in the daemon, and from where —
// never the value. `crabtalk doctor` asks the daemon through ListProviders
// (docs/protocol.md): a key set only in the user's shell is not the daemon's.
import { envTableValues, expandVars, providerEnv, type Env } from "./expand.ts";
import type { ProviderConfig } from "./schema.ts";
import { PROVIDER_KIND_TABLE, type KeyField } from "../base/provider-kinds.ts";

type KeySource = "config" | "environment" | "env_table" | "";

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
 * against the daemon's environment and `[env]` of config.toml, for the keys
 * its kind is called with (src/base/provider-kinds.ts). A kind with another
 * way in (Bedrock's AWS credential chain) and none of its keys written has
 * nothing to report.
 */
export function providerKeyStatus(p: ProviderConfig, env: Env, envTable: Record<string, string>): KeyStatus[] {
  const { fields, otherwise, optionalWithBaseUrl } = PROVIDER_KIND_TABLE[p.kind].credentials;
  if (otherwise !== undefined && fields.every((f) => !p[f])) return [];
  const table = envTableValues(envTable, env);
  const merged = providerEnv(envTable, env);
  const out: KeyStatus[] = [];
  for (const field of fields) {
    // An OpenAI-compatible server on a base_url may need no key at all.
    const required = !(optionalWithBaseUrl && p.base_url);
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
