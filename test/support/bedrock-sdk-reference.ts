// The Bedrock adapter as it was before it spoke HTTP itself: the client of
// `@aws-sdk/client-bedrock-runtime` as it was configured, the input it was
// given, and its errors mapped onto ProviderErrors. The wire test (test/model/bedrock-wire.test.ts) compares
// the adapter with this reference.
import { BedrockRuntimeClient, BedrockRuntimeServiceException } from "@aws-sdk/client-bedrock-runtime";
import type { ConverseRequest } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { toConverseRequest } from "../../src/model/bedrock/request.ts";
import { exceptionStatus } from "../../src/model/bedrock/exceptions.ts";
import { httpError, type ProviderError } from "../../src/model/errors.ts";
import { lowLevelError, redacted } from "../../src/model/failures.ts";
import { bedrockEndpoint } from "../../src/base/base-url.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { ModelRequest } from "../../src/model/types.ts";

/**
 * The SDK's input for a request: the model id and the body's fields, for the
 * SDK to serialize as it did (the wire test compares that with the adapter's
 * own serialization).
 */
export function sdkInput(request: ModelRequest): ConverseRequest {
  return { modelId: request.model, ...(toConverseRequest(request) as Omit<ConverseRequest, "modelId">) };
}

/** The client as the adapter made it. */
export function sdkClient(p: ProviderSettings): BedrockRuntimeClient {
  const baseUrl = bedrockEndpoint(p);
  return new BedrockRuntimeClient({
    region: p.region,
    maxAttempts: 1,
    ...(p.accessKey && p.secretKey ? { credentials: { accessKeyId: p.accessKey, secretAccessKey: p.secretKey } } : {}),
    ...(p.baseUrl ? { endpoint: baseUrl } : {}),
    ...(baseUrl.startsWith("http://") ? { requestHandler: new NodeHttpHandler() } : {}),
  });
}

/** The old adapter's mapping of an SDK error. */
export function sdkError(err: unknown, p: ProviderSettings, signal?: AbortSignal): ProviderError {
  const baseUrl = bedrockEndpoint(p);
  const secrets = [p.secretKey, p.accessKey, p.apiKey];
  if (err instanceof BedrockRuntimeServiceException || (err instanceof Error && "$fault" in err && "$metadata" in err)) {
    const e = err as Error & { $metadata?: { httpStatusCode?: number } };
    const wireStatus = e.$metadata?.httpStatusCode;
    const status = wireStatus !== undefined && wireStatus >= 400 ? wireStatus : exceptionStatus(e.name);
    return redacted(httpError(status, JSON.stringify({ error: { message: e.message || e.name } }), err), secrets, err);
  }
  return redacted(lowLevelError(err, baseUrl, signal), secrets, err);
}
