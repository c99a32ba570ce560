// How each API lists its models, for `crabtalk setup` to offer a choice
// (docs/providers.md#first-run-setup-crabtalk-setup): the request and how to
// read the names from its answer. Plain HTTP, no SDK, so the CLI can ask
// without loading the model layer; a kind's entry in provider-kinds.ts
// picks one of these.

export interface ModelListRequest {
  url: string;
  headers: Record<string, string>;
  names(body: unknown): string[];
}

/** The `field` of each element of `list`, with `strip` removed. */
function ids(list: unknown, field: string, strip: RegExp | string = ""): string[] {
  return Array.isArray(list) ? list.map((m) => String((m as Record<string, unknown>)?.[field] ?? "").replace(strip, "")) : [];
}

/** `GET <base>/models`, answered `{data: [{id}]}`. */
export function openAIModelList(baseUrl: string, key: string | undefined): ModelListRequest {
  return {
    url: `${baseUrl}/models`,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    names: (b) => ids((b as { data?: unknown })?.data, "id"),
  };
}

/** `GET <origin>/v1/models`, answered `{data: [{id}]}`. */
export function anthropicModelList(origin: string, key: string | undefined): ModelListRequest {
  return {
    url: `${origin}/v1/models`,
    headers: { "x-api-key": key ?? "", "anthropic-version": "2023-06-01" },
    names: (b) => ids((b as { data?: unknown })?.data, "id"),
  };
}

/** `GET <origin>/<version>/models`, answered `{models: [{name: "models/<id>"}]}`. */
export function geminiModelList(endpoint: { baseUrl: string; apiVersion: string }, key: string | undefined): ModelListRequest {
  return {
    url: `${endpoint.baseUrl}/${endpoint.apiVersion}/models`,
    headers: { "x-goog-api-key": key ?? "" },
    names: (b) => ids((b as { models?: unknown })?.models, "name", /^models\//),
  };
}
