// Errors of the model layer. Their messages are what a user reads at the end
// of a failed run (daemon.md §4.3), so they say what happened and where, and
// never carry a secret.

/** What went wrong, which decides whether a retry can help. */
export type ProviderErrorKind =
  | "http" // the provider answered with an HTTP error status
  | "connection" // could not connect, or the connection broke
  | "timeout" // an attempt exceeded the provider's timeout
  | "stream" // the provider reported an error inside a stream
  | "aborted" // the caller aborted the request
  | "unsupported" // the provider kind has no adapter
  | "other";

/** HTTP statuses worth retrying (§4.3), plus Anthropic's 529 "overloaded". */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

export interface ProviderErrorOptions {
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
        : `model '${model}' not found in registry (no providers configured: set [provider.<name>] in config.toml, or export OPENAI_API_KEY / ANTHROPIC_API_KEY, or run Ollama)`,
    );
    this.name = "ModelNotFoundError";
    this.model = model;
  }
}

const BODY_PREVIEW_CHARS = 200;

/**
 * The `<message>` of §4.3: `error.message` of an error body (OpenAI's
 * `{"error":{"message"}}`, which Anthropic's `{"type":"error","error":{…}}`
 * shares), else the body's first 200 characters followed by `...`.
 */
export function errorBodyMessage(body: string): string {
  const trimmed = body.trim();
  if (trimmed === "") return "(empty response body)";
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const message = nestedMessage(parsed);
    if (message !== undefined) return message;
  } catch {
    // not JSON: fall through to the preview
  }
  return `${[...trimmed].slice(0, BODY_PREVIEW_CHARS).join("")}...`;
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
