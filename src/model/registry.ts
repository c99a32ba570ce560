// The provider registry: one entry per model name across the enabled
// providers, each resolving to a Model with retries and timeouts
// (docs/providers.md#routing-and-base-urls, docs/providers.md#errors).
import type { Adapter } from "./adapter.ts";
import { PROVIDER_KIND_TABLE, effectiveKind, type ProviderApi, type ProviderKind } from "../base/provider-kinds.ts";
import { contextLimit } from "./context-limit.ts";
import { ModelNotFoundError, ProviderError, forProvider, redactSecrets } from "./errors.ts";
import { lazyAdapter } from "./lazy.ts";
import { withRetry } from "./retry.ts";
import { type ProviderSettings, maxRetriesOf, streamLimitsOf, timeoutSecsOf } from "../base/provider-settings.ts";
import { withStreamLimits } from "./stream-limits.ts";
import type { Model, ModelRequest } from "./types.ts";

interface RegistryOptions {
  /** Provider names left out (`[disabled] providers`). */
  disabled?: readonly string[];
  /** Backoff overrides (tests use a short base delay). */
  retry?: { baseDelayMs?: number; random?: () => number };
}

interface ResolvedModel {
  /** Config name of the provider serving the model. */
  provider: string;
  /** The API family actually spoken (docs/providers.md#routing-and-base-urls effective kind). */
  kind: ProviderKind;
  model: Model;
}

export interface ModelEntry {
  name: string;
  provider: string;
  /** The provider's configured kind. */
  kind: ProviderKind;
}

interface Entry extends ModelEntry {
  settings: ProviderSettings;
}

/** The adapter of each API, loaded on first call (docs/providers.md#adding-a-provider-kind). */
const ADAPTERS: Record<ProviderApi, (p: ProviderSettings) => Promise<Adapter>> = {
  openai: async (p) => (await import("./openai/adapter.ts")).createOpenAIAdapter(p),
  anthropic: async (p) => (await import("./anthropic/adapter.ts")).createAnthropicAdapter(p),
  gemini: async (p) => (await import("./gemini/adapter.ts")).createGeminiAdapter(p),
  bedrock: async (p) => (await import("./bedrock/adapter.ts")).createBedrockAdapter(p),
};

/** The API a provider speaks (its kind's, or Anthropic's for a base URL naming it), loaded lazily. */
function createAdapter(p: ProviderSettings): Adapter {
  const spec = PROVIDER_KIND_TABLE[effectiveKind(p)];
  return lazyAdapter(p, spec.endpoint(p), () => ADAPTERS[spec.api](p));
}

/** An adapter whose every call fails with `error` (a provider that cannot be set up). */
function failingAdapter(baseUrl: string, error: ProviderError): Adapter {
  return {
    baseUrl,
    complete: () => Promise.reject(error),
    // biome-ignore lint/correctness/useYield: a stream that fails on its first read has nothing to yield.
    stream: async function* () {
      throw error;
    },
  };
}

export class ModelRegistry {
  private readonly entries = new Map<string, Entry>();
  /** One Model per provider, made on first use (clients are cheap but not free). */
  private readonly providerModels = new Map<string, Model>();
  private readonly options: RegistryOptions;

  constructor(providers: readonly ProviderSettings[], options: RegistryOptions = {}) {
    this.options = options;
    const disabled = new Set(options.disabled ?? []);
    for (const p of providers) {
      if (disabled.has(p.name)) continue;
      for (const name of p.models) {
        // Config validation rejects duplicates; should one slip through, the first provider keeps it.
        if (!this.entries.has(name)) this.entries.set(name, { name, provider: p.name, kind: p.kind, settings: p });
      }
    }
  }

  /** Every routable model name, in provider order. */
  models(): ModelEntry[] {
    return [...this.entries.values()].map(({ name, provider, kind }) => ({ name, provider, kind }));
  }

  has(model: string): boolean {
    return this.entries.has(model);
  }

  get isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** The provider serving `model`, or undefined. */
  providerOf(model: string): string | undefined {
    return this.entries.get(model)?.provider;
  }

  /** Throws ModelNotFoundError (listing the known models) for an unknown name. */
  resolve(model: string): ResolvedModel {
    const entry = this.entries.get(model);
    if (!entry) throw new ModelNotFoundError(model, [...this.entries.keys()]);
    const providerModel = this.providerModel(entry.settings);
    // The registry routes by name, so the request goes out under the name it was resolved by.
    const named = (err: unknown) => forProvider(err, entry.provider, model);
    const bound: Model = {
      complete: (request: ModelRequest) =>
        providerModel.complete({ ...request, model }).catch((err: unknown) => {
          throw named(err);
        }),
      async *stream(request: ModelRequest) {
        try {
          yield* providerModel.stream({ ...request, model });
        } catch (err) {
          throw named(err);
        }
      },
    };
    return { provider: entry.provider, kind: effectiveKind(entry.settings), model: bound };
  }

  /** The model's context window: its provider's `context_limits`, else its family's default. */
  contextLimit(model: string): number {
    return contextLimit(model, this.entries.get(model)?.settings.contextLimits);
  }

  private providerModel(p: ProviderSettings): Model {
    let model = this.providerModels.get(p.name);
    if (!model) {
      let adapter: Adapter;
      try {
        adapter = createAdapter(p);
      } catch (err) {
        const reason = redactSecrets(err instanceof Error ? err.message : String(err), [p.apiKey, p.secretKey]);
        adapter = failingAdapter(p.baseUrl ?? "", new ProviderError(`provider '${p.name}' cannot be set up: ${reason}`, { kind: "other", cause: err }));
      }
      model = withRetry(withStreamLimits(adapter, streamLimitsOf(p)), {
        maxRetries: maxRetriesOf(p),
        timeoutMs: timeoutSecsOf(p) * 1000,
        ...this.options.retry,
      });
      this.providerModels.set(p.name, model);
    }
    return model;
  }
}
