// How a source of AWS credentials fails (docs/providers.md#bedrock--aws-bedrock):
// a ProviderError saying which source failed and why, never with a secret in
// it. errors.ts has no "auth" kind; "other" (not retried) is the closest, and
// an unreachable or overloaded endpoint is marked transient.
import { ProviderError } from "../../errors.ts";

export const PREFIX = "AWS credentials";

/** `AWS credentials: <source>: <why>`. */
export function credentialsError(source: string, why: string, options: { transient?: boolean; cause?: unknown } = {}): ProviderError {
  return new ProviderError(`${PREFIX}: ${source}: ${why}`, { kind: "other", transient: options.transient ?? false, cause: options.cause });
}

export function abortedError(cause?: unknown): ProviderError {
  return new ProviderError("provider request aborted", { kind: "aborted", cause });
}

const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text from a file or a server, safe to show: control characters escaped, at most `max` characters. */
export function shown(text: string, max = 200): string {
  const cut = [...text].slice(0, max).join("");
  const escaped = cut.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return cut.length < text.length ? `${escaped}...` : escaped;
}

/** A low-level failure in a few words (an error code or message), for "cannot connect (…)". */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return shown(String(err));
  const code = (err as { code?: unknown }).code;
  const text = err.message.replace(/\s*For more information, pass `verbose: true`.*$/s, "").trim();
  if (typeof code === "string" && code !== "" && !text.startsWith(code)) return shown(`${code}: ${text}`);
  return shown(text || err.name);
}
