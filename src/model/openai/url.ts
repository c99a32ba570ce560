// Where a Chat Completions request goes, built as the `openai` SDK built it:
// `<base>/chat/completions`; for Azure `<endpoint>/openai/deployments/<model>/chat/completions?api-version=…`
// (a base URL already under /openai is used as is, one already naming a
// deployment gets no second one).

export function chatCompletionsUrl(baseUrl: string, model: string, azureApiVersion?: string): string {
  let base = baseUrl;
  let path = "/chat/completions";
  if (azureApiVersion !== undefined) {
    if (!/\/openai(\/|$)/.test(new URL(baseUrl).pathname)) base = `${baseUrl.replace(/\/+$/, "")}/openai`;
    if (!base.includes("/deployments")) path = `/deployments/${model}${path}`;
  }
  const url = new URL(base + (base.endsWith("/") ? path.slice(1) : path));
  const query: Record<string, string> = Object.fromEntries(url.searchParams);
  if (azureApiVersion !== undefined) query["api-version"] = azureApiVersion;
  if (Object.keys(query).length > 0) url.search = stringifyQuery(query);
  return url.toString();
}

/** `key=value&…` encoded as RFC 3986 says (the SDK's qs format): `!'()*` escaped too. */
function stringifyQuery(query: Record<string, string>): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return Object.entries(query)
    .map(([key, value]) => `${encode(key)}=${encode(value)}`)
    .join("&");
}
