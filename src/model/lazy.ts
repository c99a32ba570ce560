// An adapter whose code is loaded on first use: a daemon pays the start time
// and memory of the provider APIs it actually calls, not of every one it
// could call.
import type { Adapter } from "./adapter.ts";
import { ProviderError, redactSecrets } from "./errors.ts";
import type { ProviderSettings } from "../base/provider-settings.ts";
import type { ModelRequest } from "./types.ts";

export function lazyAdapter(p: ProviderSettings, baseUrl: string, load: () => Promise<Adapter>): Adapter {
  let loading: Promise<Adapter> | undefined;
  const adapter = () =>
    (loading ??= load().catch((err: unknown) => {
      const reason = redactSecrets(err instanceof Error ? err.message : String(err), [p.apiKey, p.secretKey]);
      throw new ProviderError(`provider '${p.name}' cannot be set up: ${reason}`, { kind: "other", cause: err });
    }));
  return {
    baseUrl,
    async complete(request: ModelRequest) {
      return (await adapter()).complete(request);
    },
    async *stream(request: ModelRequest) {
      yield* (await adapter()).stream(request);
    },
  };
}
