// The OpenAI and Anthropic adapters as they were before they spoke HTTP
// themselves: each SDK's errors mapped onto ProviderErrors. The wire tests
// (test/model/*-wire.test.ts) compare the adapters with this reference.
import { ProviderError, httpError } from "../../src/model/errors.ts";
import { errorBodyText } from "../../src/model/body-limits.ts";
import { aborted, cannotConnect, lowLevelError, redacted, streamErrorEvent, timedOut, type Fetch } from "../../src/model/failures.ts";

/** The error classes of one SDK (the constructors are only used with instanceof). */
interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/**
 * A fetch for the SDKs that keeps the raw body of every error response,
 * because the SDKs keep only a parsed part of it. Keyed by the response's
 * Headers object, which the SDKs hand on to their errors.
 */
export class ErrorBodies {
  private readonly bodies = new WeakMap<Headers, string>();

  readonly fetch: Fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.ok) return res;
    const text = await errorBodyText(res);
    const nullBody = text === "" || res.status === 304;
    const copy = new Response(nullBody ? null : text, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
    this.bodies.set(copy.headers, text);
    return copy;
  };

  bodyOf(headers: unknown): string | undefined {
    return headers instanceof Headers ? this.bodies.get(headers) : undefined;
  }
}

export interface ErrorContext {
  baseUrl: string;
  /** Values never to appear in a message (the API key). */
  secrets: readonly (string | undefined)[];
  bodies: ErrorBodies;
  classes: SdkErrorClasses;
}

export function toProviderError(err: unknown, ctx: ErrorContext): ProviderError {
  if (err instanceof ProviderError) return err;
  return redacted(map(err, ctx), ctx.secrets, err);
}

function map(err: unknown, ctx: ErrorContext): ProviderError {
  const { classes } = ctx;
  if (err instanceof classes.APIUserAbortError) return aborted(err);
  if (err instanceof classes.APIConnectionTimeoutError) return timedOut(ctx.baseUrl, err);
  if (err instanceof classes.APIConnectionError) return cannotConnect(ctx.baseUrl, causeOf(err), err);
  if (err instanceof classes.APIError) {
    const { status, headers, error } = err as Error & { status?: unknown; headers?: unknown; error?: unknown };
    if (typeof status === "number") {
      const body = ctx.bodies.bodyOf(headers) ?? (error === undefined ? "" : JSON.stringify(error));
      return httpError(status, body, err);
    }
    return streamErrorEvent(error, err);
  }
  return lowLevelError(err, ctx.baseUrl);
}

function causeOf(err: Error): unknown {
  return err.cause ?? err;
}
