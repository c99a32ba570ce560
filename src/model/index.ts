// The model layer's public surface, for the daemon and the agent loop.
export type * from "./types.ts";
export { PROVIDER_KINDS, type ProviderKind, type ProviderSettings, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECS } from "../base/provider-settings.ts";
export { ModelRegistry, type ModelEntry, type RegistryOptions, type ResolvedModel } from "./registry.ts";
export { ModelNotFoundError, ProviderError, type ProviderErrorKind } from "./errors.ts";
export { contextLimit, DEFAULT_CONTEXT_LIMIT } from "./context-limit.ts";
export { detectProviders, type DetectOptions, type DetectedProviders } from "./detect.ts";
export { PROVIDER_PRESETS, type ProviderPreset } from "./presets.ts";
export { effectiveKind, normalizeOpenAIBaseUrl } from "../base/base-url.ts";
