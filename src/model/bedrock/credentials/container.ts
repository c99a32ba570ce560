// Container credentials (docs/providers.md#bedrock--aws-bedrock): ECS task
// roles and EKS Pod Identity, as the SDK's fromHttp reads them.
// AWS_CONTAINER_CREDENTIALS_RELATIVE_URI is a path on http://169.254.170.2;
// AWS_CONTAINER_CREDENTIALS_FULL_URI a whole URL, accepted over https, or over
// http only on a loopback address or the ECS/EKS container hosts. The
// Authorization header comes from AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE
// (preferred) or AWS_CONTAINER_AUTHORIZATION_TOKEN. One-second attempts,
// retried three times a second apart when the endpoint cannot be reached or
// answers 5xx, as the SDK's.
import { ProviderError } from "../../errors.ts";
import { credentialsError, shown } from "./failure.ts";
import { expandHome, KIB, readBounded } from "./files.ts";
import { exchange, parseJson, Unreachable } from "./http.ts";
import { type Context, NextSource, type ResolvedCredentials } from "./types.ts";

const ECS_HOST = "http://169.254.170.2";
const ALLOWED_HTTP_HOSTS = new Set(["169.254.170.2", "169.254.170.23", "[fd00:ec2::23]", "localhost", "[::1]"]);
const TIMEOUT_MS = 1000;
const RETRIES = 3;
const RETRY_DELAY_MS = 1000;
const WHAT = "container credentials";

export function containerConfigured(ctx: Context): boolean {
  return Boolean(ctx.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || ctx.env.AWS_CONTAINER_CREDENTIALS_FULL_URI);
}

function endpoint(ctx: Context): URL {
  const relative = ctx.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI;
  const full = ctx.env.AWS_CONTAINER_CREDENTIALS_FULL_URI;
  if (relative) {
    try {
      return new URL(`${ECS_HOST}${relative}`);
    } catch {
      throw credentialsError(WHAT, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI does not make a URL");
    }
  }
  if (!full) throw new NextSource(`${WHAT}: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and AWS_CONTAINER_CREDENTIALS_FULL_URI are not set`);
  let url: URL;
  try {
    url = new URL(full);
  } catch {
    throw credentialsError(WHAT, "AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL");
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (ALLOWED_HTTP_HOSTS.has(url.hostname) || isLoopbackV4(url.hostname))) return url;
  throw credentialsError(
    WHAT,
    `AWS_CONTAINER_CREDENTIALS_FULL_URI host '${shown(url.hostname, 80)}' is not accepted: it must be https, or http on a loopback address (127.0.0.0/8, [::1]) or the container hosts 169.254.170.2, 169.254.170.23, [fd00:ec2::23]`,
  );
}

function isLoopbackV4(host: string): boolean {
  const parts = host.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

async function authorization(ctx: Context): Promise<string | undefined> {
  const file = ctx.env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE;
  let token: string | undefined;
  if (file) {
    token = await readBounded(expandHome(file, ctx.env), 16 * KIB, `${WHAT}: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE`);
    if (token === undefined) throw credentialsError(WHAT, "the file named by AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE does not exist");
  } else {
    token = ctx.env.AWS_CONTAINER_AUTHORIZATION_TOKEN;
  }
  if (token === undefined || token === "") return undefined;
  if (/[\r\n]/.test(token.trimEnd())) throw credentialsError(WHAT, "the authorization token contains a line break");
  return token.trimEnd();
}

export async function fromContainer(ctx: Context): Promise<ResolvedCredentials> {
  const url = endpoint(ctx);
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce(ctx, url);
    } catch (err) {
      const retryable = err instanceof Unreachable || (err instanceof ProviderError && err.transient && err.kind !== "aborted");
      if (!retryable || attempt >= RETRIES) throw err;
      await delay(RETRY_DELAY_MS, ctx.signal);
    }
  }
}

async function attemptOnce(ctx: Context, url: URL): Promise<ResolvedCredentials> {
  const token = await authorization(ctx);
  const answer = await exchange({
    url: url.href,
    headers: token === undefined ? {} : { authorization: token },
    timeoutMs: TIMEOUT_MS,
    signal: ctx.signal,
    what: WHAT,
  });
  if (answer.status !== 200) {
    throw credentialsError(WHAT, `${url.origin} answered HTTP ${answer.status}${codeOf(answer.text)}`, { transient: answer.status >= 500 });
  }
  const data = parseJson(answer.text, WHAT);
  return credentialsFromJson(data, WHAT);
}

function codeOf(text: string): string {
  try {
    const body = JSON.parse(text) as { Code?: unknown; Message?: unknown };
    const parts = [body.Code, body.Message].filter((p): p is string => typeof p === "string" && p !== "");
    return parts.length > 0 ? ` (${shown(parts.join(": "))})` : "";
  } catch {
    return "";
  }
}

/** `{AccessKeyId, SecretAccessKey, Token, Expiration}`, all strings: the answer of the container endpoint and of IMDS. */
export function credentialsFromJson(data: unknown, what: string): ResolvedCredentials {
  const d = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const { AccessKeyId, SecretAccessKey, Token, Expiration } = d;
  if (typeof AccessKeyId !== "string" || typeof SecretAccessKey !== "string" || typeof Token !== "string" || typeof Expiration !== "string") {
    throw credentialsError(what, "the answer is not {AccessKeyId, SecretAccessKey, Token, Expiration} as strings");
  }
  const expiration = new Date(Expiration);
  if (!AccessKeyId || !SecretAccessKey || Number.isNaN(expiration.getTime()))
    throw credentialsError(what, "the answer has empty keys or an Expiration that is not a date");
  return { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: Token, expiration };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
