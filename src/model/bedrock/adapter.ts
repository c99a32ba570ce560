// Adapter for AWS Bedrock's Converse and ConverseStream. It speaks HTTP with
// fetch and signs each request itself (sigv4.ts): the URL and body are those
// the AWS SDK sent, credentials come from the provider's keys or the AWS
// default chain (credentials/), the event stream is read as the SDK read it
// (stream.ts) and each failure becomes the error the SDK's became
// (test/model/bedrock-wire.test.ts holds all of it to the SDK).
import type { Adapter } from "../adapter.ts";
import { bedrockEndpoint } from "../../base/base-url.ts";
import { ProviderError } from "../errors.ts";
import { unfinishedStream } from "../stream-end.ts";
import { bodyLimitOf, errorBodyText, wholeBodyJson } from "../body-limits.ts";
import { fetchFailure, lowLevelError, redacted } from "../failures.ts";
import { BedrockStreamState, fromConverse } from "./response.ts";
import { toConverseRequest } from "./request.ts";
import { converseEvents } from "./stream.ts";
import { responseError } from "./exceptions.ts";
import { signedHeaders, uriEncode, type AwsCredentials } from "./sigv4.ts";
import { defaultCredentialChain } from "./credentials/chain.ts";
import type { ConverseResponse } from "./wire.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";

export type CredentialsResolver = (signal?: AbortSignal) => Promise<AwsCredentials>;

export function createBedrockAdapter(p: ProviderSettings): Adapter {
  const baseUrl = bedrockEndpoint(p);
  const region = p.region ?? "us-east-1";
  const credentials: CredentialsResolver =
    p.accessKey && p.secretKey ? async () => ({ accessKeyId: p.accessKey!, secretAccessKey: p.secretKey! }) : defaultCredentialChain({ region });
  const bodyLimit = bodyLimitOf(p, baseUrl);
  const secrets = [p.secretKey, p.accessKey, p.apiKey];
  /** The error as the caller sees it, with no key of the provider's nor of the credentials used. */
  const failure = (err: unknown, request: ModelRequest, used: AwsCredentials | undefined) =>
    redacted(lowLevelError(err, baseUrl, request.signal), [...secrets, used?.secretAccessKey, used?.sessionToken]);

  /** One signed request (the model id is one path segment: inference profile ARNs hold `:` and `/`). */
  async function send(request: ModelRequest, operation: "converse" | "converse-stream", used: AwsCredentials): Promise<Response> {
    const url = `${baseUrl}/model/${uriEncode(request.model)}/${operation}`;
    const body = JSON.stringify(toConverseRequest(request));
    const headers = signedHeaders({ method: "POST", url, body, contentType: "application/json", region, service: "bedrock", credentials: used });
    let response: Response;
    try {
      response = await fetch(url, { method: "POST", headers, body, signal: request.signal });
    } catch (err) {
      throw fetchFailure(err, baseUrl, request.signal);
    }
    if (!response.ok) throw responseError(response.status, await errorBodyText(response));
    return response;
  }

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    let used: AwsCredentials | undefined;
    try {
      used = await credentials(request.signal);
      return fromConverse(await wholeBodyJson<ConverseResponse>(await send(request, "converse", used), bodyLimit));
    } catch (err) {
      throw failure(err, request, used);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const state = new BedrockStreamState();
    let events = 0;
    let used: AwsCredentials | undefined;
    try {
      used = await credentials(request.signal);
      for await (const event of converseEvents(await send(request, "converse-stream", used), bodyLimit)) {
        events++;
        yield* state.push(event);
      }
    } catch (err) {
      throw failure(err, request, used);
    }
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    // Bedrock always ends a message with messageStop; without it the answer is cut short.
    if (!state.stopped) throw unfinishedStream(baseUrl, "messageStop", events);
  }

  return { baseUrl, complete, stream };
}
