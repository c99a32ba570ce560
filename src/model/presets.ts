// Provider presets offered to clients setting up a provider (docs/providers.md#presets).
import type { ProviderKind } from "../base/provider-settings.ts";

export interface ProviderPreset {
  name: string;
  kind: ProviderKind;
  /** Suggested, editable base URL ("" = none). */
  baseUrl: string;
  /** Base URL the kind always uses ("" = none). */
  fixedBaseUrl: string;
  defaultModel: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    name: "anthropic",
    kind: "anthropic",
    baseUrl: "",
    fixedBaseUrl: "https://api.anthropic.com/v1",
    defaultModel: "claude-sonnet-4-5-20250514",
  },
  { name: "openai", kind: "openai", baseUrl: "https://api.openai.com/v1", fixedBaseUrl: "", defaultModel: "gpt-4o" },
  {
    name: "google",
    kind: "google",
    baseUrl: "",
    fixedBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
    defaultModel: "gemini-2.5-pro",
  },
  { name: "ollama", kind: "ollama", baseUrl: "http://localhost:11434/v1", fixedBaseUrl: "", defaultModel: "llama3" },
  { name: "azure", kind: "azure", baseUrl: "", fixedBaseUrl: "", defaultModel: "gpt-4o" },
];
