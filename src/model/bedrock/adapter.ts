// Adapter for AWS Bedrock through `@aws-sdk/client-bedrock-runtime`
// (Converse and ConverseStream): a region, static keys when given, else the
// SDK's default credential chain, and an optional endpoint override.
import { BedrockRuntimeClient, BedrockRuntimeServiceException, ConverseCommand, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import type { Adapter } from "../adapter.ts";
import { bedrockEndpoint } from "../../base/base-url.ts";
import { ProviderError, httpError } from "../errors.ts";
import { BedrockStreamState, fromConverse } from "./response.ts";
import { toConverseRequest } from "./request.ts";
import { lowLevelError, redacted } from "../failures.ts";
import type { ProviderSettings } from "../../base/provider-settings.ts";
import type { ModelRequest, ModelResponse, StreamChunk } from "../types.ts";

export function createBedrockAdapter(p: ProviderSettings): Adapter {
  const baseUrl = bedrockEndpoint(p);
  const client = new BedrockRuntimeClient({
    region: p.region,
    // No SDK retries: retry.ts does them, once for every provider.
    maxAttempts: 1,
    ...(p.accessKey && p.secretKey ? { credentials: { accessKeyId: p.accessKey, secretAccessKey: p.secretKey } } : {}),
    ...(p.baseUrl ? { endpoint: baseUrl } : {}),
    // Proxies, local gateways and tests speak plain HTTP/1.1, which the default handler cannot reach.
    ...(baseUrl.startsWith("http://") ? { requestHandler: new NodeHttpHandler() } : {}),
  });
  const secrets = [p.secretKey, p.accessKey, p.apiKey];
  const fail = (err: unknown, request: ModelRequest): ProviderError => redacted(toProviderError(err, baseUrl, request.signal), secrets, err);

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      const response = await client.send(new ConverseCommand(toConverseRequest(request)), { abortSignal: request.signal });
      return fromConverse(response);
    } catch (err) {
      throw fail(err, request);
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const state = new BedrockStreamState();
    try {
      const response = await client.send(new ConverseStreamCommand(toConverseRequest(request)), {
        abortSignal: request.signal,
      });
      for await (const event of response.stream ?? []) yield* state.push(event);
    } catch (err) {
      throw fail(err, request);
    }
    if (request.signal?.aborted) throw new ProviderError("provider request aborted", { kind: "aborted" });
    if (!state.stopped) {
      throw new ProviderError(`provider error: stream from ${baseUrl} ended before the message was complete`, {
        kind: "connection",
      });
    }
  }

  return { baseUrl, complete, stream };
}

/** The HTTP status each Bedrock exception stands for (in-stream ones arrive without one). */
const EXCEPTION_STATUS: Record<string, number> = {
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  InternalServerException: 500,
  ModelStreamErrorException: 500,
  ServiceUnavailableException: 503,
  ModelNotReadyException: 503,
  ModelTimeoutException: 504,
  UnrecognizedClientException: 401,
  AccessDeniedException: 403,
  InvalidSignatureException: 403,
  ExpiredTokenException: 403,
  ResourceNotFoundException: 404,
  ValidationException: 400,
};

function toProviderError(err: unknown, baseUrl: string, signal: AbortSignal | undefined): ProviderError {
  if (err instanceof BedrockRuntimeServiceException || isAwsException(err)) {
    const e = err as Error & { $metadata?: { httpStatusCode?: number } };
    const wireStatus = e.$metadata?.httpStatusCode;
    const status = wireStatus !== undefined && wireStatus >= 400 ? wireStatus : (EXCEPTION_STATUS[e.name] ?? 500);
    return httpError(status, JSON.stringify({ error: { message: e.message || e.name } }), err);
  }
  return lowLevelError(err, baseUrl, signal);
}

/** Exceptions the SDK builds from error responses carry `$fault` and `$metadata`. */
function isAwsException(err: unknown): boolean {
  return err instanceof Error && "$fault" in err && "$metadata" in err;
}
