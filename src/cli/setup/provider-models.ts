// The models a provider offers, asked of the provider itself with its own
// list-models call, so that setup can offer a choice. Any failure (no
// network, a refused key, a kind without such a call) gives an empty list:
// setup then asks for the model name instead.
import { anthropicBaseUrl, geminiEndpoint, openAIBaseUrl } from "../../base/base-url.ts";
import type { ProviderKind } from "../../base/provider-settings.ts";

export interface ProviderAccess {
  kind: ProviderKind;
  baseUrl?: string;
  apiKey?: string;
}

const LIST_TIMEOUT_MS = 5000;
/** Printable, no whitespace, of a sane length. */
const MODEL_NAME = /^[\x21-\x7e]{1,200}$/;

export async function listProviderModels(p: ProviderAccess): Promise<string[]> {
  try {
    const ask = listRequest(p);
    if (!ask) return [];
    const res = await fetch(ask.url, { headers: ask.headers, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
    if (!res.ok) return [];
    // Names go on the user's terminal: a hostile or broken server's control characters never do.
    return ask.names(await res.json()).filter((n, i, all) => MODEL_NAME.test(n) && all.indexOf(n) === i);
  } catch {
    return [];
  }
}

interface ListRequest {
  url: string;
  headers: Record<string, string>;
  names(body: unknown): string[];
}

function listRequest(p: ProviderAccess): ListRequest | undefined {
  const key = p.apiKey ?? "";
  const ids = (list: unknown, field: string, strip: RegExp | string = ""): string[] =>
    Array.isArray(list) ? list.map((m) => String((m as Record<string, unknown>)?.[field] ?? "").replace(strip, "")) : [];
  switch (p.kind) {
    case "openai":
    case "ollama":
    case "llama_cpp":
      return {
        url: `${openAIBaseUrl(p)}/models`,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        names: (b) => ids((b as { data?: unknown })?.data, "id"),
      };
    case "anthropic":
      return {
        url: `${anthropicBaseUrl(p)}/v1/models`,
        headers: { "x-api-key": key, "anthropic-version": "2023-06-01" },
        names: (b) => ids((b as { data?: unknown })?.data, "id"),
      };
    case "google": {
      const { baseUrl, apiVersion } = geminiEndpoint(p);
      return {
        url: `${baseUrl}/${apiVersion}/models`,
        headers: { "x-goog-api-key": key },
        names: (b) => ids((b as { models?: unknown })?.models, "name", /^models\//),
      };
    }
    default:
      // Azure lists deployments only through its management API; Bedrock needs signed requests.
      return undefined;
  }
}
