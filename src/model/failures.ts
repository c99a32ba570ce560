// What a provider request made with fetch meets, as the ProviderErrors of
// docs/providers.md#errors: a fetch that failed before any answer, an error
// event inside a stream, a connection lost while reading, any other failure.
// The cases are told apart as the provider SDKs told them apart
// (test/model/*-wire.test.ts holds each adapter to its SDK).
import { ProviderError, errorBodyMessage, redactSecrets } from "./errors.ts";

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Error types a provider reports inside a stream that a retry can help with. */
const TRANSIENT_STREAM_ERROR_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error", "server_error"]);

/** Network failure codes (Bun and Node) seen while reading a response body. */
const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "ConnectionRefused", "ConnectionClosed", "UND_ERR_SOCKET"]);

export const aborted = (cause: unknown) => new ProviderError("provider request aborted", { kind: "aborted", cause });

export const timedOut = (baseUrl: string, cause: unknown) => new ProviderError(`provider error: request to ${baseUrl} timed out`, { kind: "timeout", cause });

export const cannotConnect = (baseUrl: string, failure: unknown, cause: unknown) =>
  new ProviderError(`provider error: cannot connect to ${baseUrl} (${describe(failure)})`, { kind: "connection", cause });

/**
 * An error event inside a stream, from its body: OpenAI sends `error`, Anthropic
 * the whole event. What the SDKs' APIError without a status became.
 */
export function streamErrorEvent(error: unknown, cause?: unknown): ProviderError {
  const body = typeof error === "string" ? error : JSON.stringify({ error: unwrapError(error) });
  return new ProviderError(`provider error: ${errorBodyMessage(body)}`, {
    kind: "stream",
    transient: TRANSIENT_STREAM_ERROR_TYPES.has(errorType(error) ?? ""),
    cause,
  });
}

/**
 * A fetch that threw before any response, as the OpenAI SDK (and Anthropic's,
 * made by the same generator) tells the cases apart: the caller's abort; a
 * timeout (an abort, or an error whose text or cause's says "timed out");
 * anything else cannot connect.
 */
export function fetchFailure(err: unknown, baseUrl: string, signal?: AbortSignal): ProviderError {
  if (signal?.aborted) return aborted(err);
  const text = err instanceof Error ? String(err) + ("cause" in err ? String(err.cause) : "") : String(err);
  if ((err instanceof Error && err.name === "AbortError") || /timed? ?out/i.test(text)) return timedOut(baseUrl, err);
  return cannotConnect(baseUrl, err, err);
}

/** The SDKs' test for an aborted read (their internal/errors.ts isAbortError). */
export function isAbortError(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { name?: unknown; message?: unknown };
  return e.name === "AbortError" || String(e.message).includes("FetchRequestCanceledException");
}

/**
 * What is left once an adapter's own errors are handled: an abort, a
 * network failure (transient), or anything else. Shared by every adapter.
 */
export function lowLevelError(err: unknown, baseUrl: string, signal?: AbortSignal): ProviderError {
  if (err instanceof ProviderError) return err;
  if (signal?.aborted) return aborted(err);
  // An abort nobody asked for is the SDK's word for a connection that went away.
  if (isNetworkError(err) || (err instanceof Error && err.name === "AbortError")) {
    return new ProviderError(`provider error: connection to ${baseUrl} lost (${describe(err)})`, {
      kind: "connection",
      cause: err,
    });
  }
  return new ProviderError(`provider error: ${describe(err)}`, { kind: "other", cause: err });
}

/** An error with every secret of `secrets` replaced. */
export function redacted(err: ProviderError, secrets: readonly (string | undefined)[], cause?: unknown): ProviderError {
  const message = redactSecrets(err.message, secrets);
  if (message === err.message) return err;
  return new ProviderError(message, { kind: err.kind, status: err.status, transient: err.transient, cause: cause ?? err.cause });
}

/** OpenAI stream errors carry `{message,…}`, Anthropic's `{type:"error", error:{message,…}}`. */
function unwrapError(error: unknown): unknown {
  if (typeof error === "object" && error !== null && "error" in error) return (error as { error: unknown }).error;
  return error;
}

function errorType(error: unknown): string | undefined {
  const inner = unwrapError(error);
  if (typeof inner === "object" && inner !== null) {
    const type = (inner as { type?: unknown }).type;
    if (typeof type === "string") return type;
  }
  return undefined;
}

function isNetworkError(err: unknown, depth = 0): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
  // Node's undici (and the SDKs over it) wrap the socket error as the cause of a TypeError.
  const cause = (err as { cause?: unknown }).cause;
  return depth < 3 && cause !== undefined && cause !== err && isNetworkError(cause, depth + 1);
}

/** A short description of a low-level failure, without the fetch boilerplate Bun appends. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  const text = err.message.replace(/\s*For more information, pass `verbose: true`.*$/s, "").trim();
  if (typeof code === "string" && code !== "" && !text.startsWith(code)) return `${code}: ${text}`;
  return text || err.name;
}
