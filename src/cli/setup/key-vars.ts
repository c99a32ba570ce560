// Environment variables that hold provider keys: what setup suggests to
// reference, and what the no-provider message reports as found.
import type { ProviderKind } from "../../base/provider-settings.ts";

/** The usual variable of each kind's key, first choice first. */
export const KEY_VARS: Partial<Record<ProviderKind, readonly string[]>> = {
  openai: ["OPENAI_API_KEY"],
  anthropic: ["ANTHROPIC_API_KEY"],
  google: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  azure: ["AZURE_OPENAI_API_KEY"],
};

/** Kinds that run without any key (local servers; Bedrock uses the AWS credential chain). */
export const KEYLESS_KINDS: ReadonlySet<ProviderKind> = new Set(["ollama", "llama_cpp", "bedrock"]);

/** The known key variables set (non-empty) in `env`, with their kind. */
export function keyVarsIn(env: Record<string, string | undefined>): { name: string; kind: ProviderKind }[] {
  const found: { name: string; kind: ProviderKind }[] = [];
  for (const [kind, names] of Object.entries(KEY_VARS) as [ProviderKind, readonly string[]][]) {
    for (const name of names) if (env[name]?.trim()) found.push({ name, kind });
  }
  return found;
}
