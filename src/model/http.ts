// One request to a provider's HTTP API with fetch alone, no SDK: a failed
// fetch and an error status become the ProviderErrors the SDKs' errors became
// (failures.ts, docs/providers.md#errors). A successful response is handed
// back for the adapter to read.
import { httpError } from "./errors.ts";
import { errorBodyText } from "./body-limits.ts";
import { fetchFailure } from "./failures.ts";

export interface ProviderPost {
  url: string;
  headers: Record<string, string>;
  /** The JSON body, serialized. */
  body: string;
  signal?: AbortSignal;
  /** For messages: the provider's normalised base URL. */
  baseUrl: string;
}

export async function post(request: ProviderPost): Promise<Response> {
  const { url, headers, body, signal, baseUrl } = request;
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers, body, signal });
  } catch (err) {
    throw fetchFailure(err, baseUrl, signal);
  }
  if (response.ok) return response;
  throw httpError(response.status, await errorBodyText(response));
}
