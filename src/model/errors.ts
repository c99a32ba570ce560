// Errors of the model layer. Their messages are what a user reads at the end
// of a failed run (docs/providers.md#errors), so they say what happened and where, and
// never carry a secret.
import { detectedKeyVars } from "../base/provider-kinds.ts";

/** What went wrong, which decides whether a retry can help. */
type ProviderErrorKind =
  | "http" // the provider answered with an HTTP error status
  | "connection" // could not connect, or the connection broke
  | "timeout" // an attempt exceeded the provider's timeout
  | "stream" // the provider reported an error inside a stream
  | "aborted" // the caller aborted the request
  | "other";

/** HTTP statuses worth retrying (docs/providers.md#errors), plus Anthropic's 529 "overloaded". */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

interface ProviderErrorOptions {
  kind: ProviderErrorKind;
  status?: number;
  /** Transient despite its kind (e.g. an "overloaded" error event in a stream). */
  transient?: boolean;
  cause?: unknown;
}

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly transient: boolean;

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.kind = options.kind;
    this.status = options.status;
    this.transient =
      options.transient ??
      (options.kind === "connection" ||
        options.kind === "timeout" ||
        (options.kind === "http" && options.status !== undefined && TRANSIENT_STATUSES.has(options.status)));
  }
}

export class ModelNotFoundError extends Error {
  readonly model: string;

  constructor(model: string, known: readonly string[]) {
    super(
      known.length > 0
        ? `model '${model}' not found in registry (known models: ${known.join(", ")})`
        : `model '${model}' not found in registry (no providers configured: set [provider.<name>] in config.toml, or export ${detectedKeyVars().join(" / ")}, or run Ollama)`,
    );
    this.name = "ModelNotFoundError";
    this.model = model;
  }
}

const BODY_PREVIEW_CHARS = 200;

/**
 * The `<message>` of docs/providers.md#errors: `error.message` of an error body (OpenAI's
 * `{"error":{"message"}}`, which Anthropic's `{"type":"error","error":{…}}`
 * shares), else the body's first 200 characters followed by `...`. Control
 * characters are shown escaped (`\u001b`): the text comes from the provider
 * and ends up on a terminal.
 */
export function errorBodyMessage(body: string): string {
  const trimmed = body.trim();
  if (trimmed === "") return "(empty response body)";
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const message = nestedMessage(parsed);
    if (message !== undefined) return escapeControls(message);
  } catch {
    // not JSON: fall through to the preview
  }
  return `${escapeControls([...trimmed].slice(0, BODY_PREVIEW_CHARS).join(""))}...`;
}

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function nestedMessage(parsed: unknown): string | undefined {
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const error = (parsed as { error?: unknown }).error;
  if (typeof error === "object" && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string" && message !== "") return message;
  }
  return undefined;
}

export function httpError(status: number, body: string, cause?: unknown): ProviderError {
  return new ProviderError(`provider error (HTTP ${status}): ${errorBodyMessage(body)}`, {
    kind: "http",
    status,
    cause,
  });
}

/** Replaces every occurrence of a secret (API key etc.) in a message. */
export function redactSecrets(message: string, secrets: readonly (string | undefined)[]): string {
  let out = message;
  for (const s of secrets) {
    // Very short "keys" (dummy values) would mangle ordinary words.
    if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  }
  return out;
}

/**
 * The error as a user reads it at the end of a run: naming the provider's
 * config name always, saying the key was refused on 401/403, and which model
 * was not found on 404. Kind, status and transience are kept.
 */
export function forProvider(err: unknown, provider: string, model: string): ProviderError {
  const base =
    err instanceof ProviderError
      ? err
      : new ProviderError(`provider error: ${err instanceof Error ? err.message : String(err)}`, { kind: "other", cause: err });
  if (base.kind === "aborted" || base instanceof NamedProviderError) return base;
  // The provider's own words, without the generic prefix and status that the message restates.
  const reason = base.message.replace(/^provider error(?: \(HTTP \d+\))?:\s*/, "");
  let message: string;
  if (base.status === 401 || base.status === 403) {
    message = `provider '${provider}' refused the API key (HTTP ${base.status}): ${reason}; check the credentials of [provider.${provider}]`;
  } else if (base.status === 404) {
    message = `model '${model}' not found at provider '${provider}' (HTTP 404): ${reason}`;
  } else if (base.message.startsWith(`provider '${provider}'`)) {
    message = base.message;
  } else if (base.message.startsWith("provider error")) {
    message = `provider '${provider}'${base.message.slice("provider".length)}`;
  } else {
    message = `provider '${provider}': ${base.message}`;
  }
  return new NamedProviderError(message, { kind: base.kind, status: base.status, transient: base.transient, cause: base.cause ?? err });
}

/** A ProviderError already phrased for the user (forProvider is not applied twice). */
class NamedProviderError extends ProviderError {}
