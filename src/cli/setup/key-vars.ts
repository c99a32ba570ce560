// Environment variables that hold provider keys (each kind's
// `credentials.vars` in src/base/provider-kinds.ts): what the no-provider
// message reports as found.
import { PROVIDER_KINDS, PROVIDER_KIND_TABLE, type ProviderKind } from "../../base/provider-kinds.ts";

/** The known key variables set (non-empty) in `env`, with their kind. */
export function keyVarsIn(env: Record<string, string | undefined>): { name: string; kind: ProviderKind }[] {
  const found: { name: string; kind: ProviderKind }[] = [];
  for (const kind of PROVIDER_KINDS) {
    for (const name of PROVIDER_KIND_TABLE[kind].credentials.vars) if (env[name]?.trim()) found.push({ name, kind });
  }
  return found;
}
