// One bounded HTTP exchange of the credential chain (docs/providers.md#bedrock--aws-bedrock):
// STS, the SSO portal, the container endpoint, instance metadata. The whole
// exchange, body included, has a timeout and honours the caller's signal; the
// body is read up to a cap; redirects are not followed (a token header must
// not travel to another host). Failures name the endpoint by its origin only.
import { ProviderError } from "../../errors.ts";
import { abortedError, credentialsError, describe } from "./failure.ts";
import { KIB } from "./files.ts";

export const MAX_ANSWER_BYTES = 64 * KIB;

export interface Exchange {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** The source, as error messages name it, e.g. "STS AssumeRole". */
  what: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Thrown for a timeout or a connection failure: the caller decides whether that ends the chain. */
export class Unreachable extends ProviderError {}

export async function exchange(request: Exchange): Promise<Answer> {
  if (request.signal.aborted) throw abortedError(request.signal.reason);
  const origin = new URL(request.url).origin;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout.signal]);
  const failed = (err: unknown, phase: string): ProviderError => {
    if (request.signal.aborted) return abortedError(err);
    if (timeout.signal.aborted) {
      return new Unreachable(`AWS credentials: ${request.what}: no complete answer from ${origin} within ${request.timeoutMs / 1000}s`, {
        kind: "other",
        transient: true,
        cause: err,
      });
    }
    if (err instanceof ProviderError) return err;
    return new Unreachable(`AWS credentials: ${request.what}: ${phase} ${origin} (${describe(err)})`, { kind: "other", transient: true, cause: err });
  };
  try {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method ?? "GET",
        headers: request.headers,
        body: request.body,
        redirect: "manual",
        signal,
      });
    } catch (err) {
      throw failed(err, "cannot connect to");
    }
    try {
      return { status: response.status, headers: response.headers, text: await readCapped(response, request.what, signal) };
    } catch (err) {
      throw failed(err, "connection lost to");
    }
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, what: string, signal: AbortSignal): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        await reader.cancel().catch(() => {});
        throw credentialsError(what, `the answer is larger than ${MAX_ANSWER_BYTES / KIB} KiB`);
      }
      chunks.push(value);
    }
    if (signal.aborted) throw signal.reason;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The answer's JSON, or an error naming the source. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw credentialsError(what, "the answer is not JSON", { cause: err });
  }
}
