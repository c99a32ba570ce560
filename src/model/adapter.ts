// What every provider adapter offers the registry: a Model that makes single
// attempts (no retries, no timeouts: retry.ts adds those once for all
// adapters) and throws ProviderErrors, plus where it sends requests.
import type { Model } from "./types.ts";

export interface Adapter extends Model {
  /** The normalised base URL, for messages (never holds a secret). */
  readonly baseUrl: string;
}
