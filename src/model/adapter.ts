// What every provider adapter offers the registry: a Model that makes single
// attempts (no retries, no timeouts: retry.ts adds those once for all
// adapters) and throws ProviderErrors, plus where it sends requests.
import type { Model } from "./types.ts";

export interface Adapter extends Model {
  /** The normalised base URL, for messages (never holds a secret). */
  readonly baseUrl: string;
}

/**
 * The SDKs' own per-request timeout, effectively disabled: retry.ts bounds
 * each attempt with the provider's `timeout` instead. (setTimeout's maximum.)
 */
export const SDK_TIMEOUT_MS = 2 ** 31 - 1;
