// Bedrock's errors: an error response says why in its body's `message` (its
// status says what kind); an exception inside a stream comes without a status,
// named by its `:exception-type`.
// Both become the ProviderErrors the AWS SDK's exceptions became
// (docs/providers.md#errors), status included, so retries and the user's
// message treat them alike.
import { httpError, type ProviderError } from "../errors.ts";

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

export const exceptionStatus = (name: string) => EXCEPTION_STATUS[name] ?? 500;

/**
 * An error response: its status and its message ("UnknownError" when it gives
 * none, as the SDK's said). A body that is not JSON (a proxy's page) is shown
 * as every adapter shows one; the SDK lost the status to a parse error there.
 */
export function responseError(status: number, body: string): ProviderError {
  let parsed: Record<string, unknown> = {};
  if (body.trim() !== "") {
    try {
      const json: unknown = JSON.parse(body);
      if (typeof json === "object" && json !== null) parsed = json as Record<string, unknown>;
    } catch {
      return httpError(status, body);
    }
  }
  const message = stringOf(parsed.message) ?? stringOf(parsed.Message) ?? "UnknownError";
  return httpError(status, JSON.stringify({ error: { message } }));
}

const stringOf = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
