// One request to a provider's HTTP API with fetch alone, no SDK: a failed
// fetch and an error status become the ProviderErrors the SDKs' errors became
// (failures.ts, docs/providers.md#errors). A successful response is handed
// back for the adapter to read.
import { errorBodyText, httpError } from "./errors.ts";
import { fetchFailure, type Fetch } from "./failures.ts";

export interface ProviderPost {
  url: string;
  headers: Record<string, string>;
  /** The JSON body, serialized. */
  body: string;
  signal?: AbortSignal;
  /** For messages: the provider's normalised base URL. */
  baseUrl: string;
}

export async function post(request: ProviderPost, fetchFn: Fetch = fetch): Promise<Response> {
  const { url, headers, body, signal, baseUrl } = request;
  let response: Response;
  try {
    response = await fetchFn(url, { method: "POST", headers, body, signal });
  } catch (err) {
    throw fetchFailure(err, baseUrl, signal);
  }
  if (response.ok) return response;
  throw httpError(response.status, await errorBodyText(response));
}
