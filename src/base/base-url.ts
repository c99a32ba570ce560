// Base-URL normalisation (docs/providers.md#routing-and-base-urls), so a
// base_url works given bare or as a full endpoint URL. Which kind uses which
// of these is said by its entry in provider-kinds.ts.
import type { ProviderSettings } from "./provider-settings.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const OLLAMA_DEFAULT_BASE_URL = "http://localhost:11434/v1";
/** llama.cpp's `llama-server` default listen address. */
export const LLAMA_CPP_DEFAULT_BASE_URL = "http://localhost:8080/v1";
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

function stripTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}

function stripOneSuffix(url: string, suffixes: readonly string[]): string {
  for (const s of suffixes) {
    if (url.endsWith(s)) return url.slice(0, -s.length);
  }
  return url;
}

/** docs/providers.md#routing-and-base-urls: strip trailing `/`, then one trailing `/chat/completions`, `/messages` or `/embeddings`. */
export function normalizeOpenAIBaseUrl(url: string): string {
  return stripOneSuffix(stripTrailingSlashes(url.trim()), ["/chat/completions", "/messages", "/embeddings"]);
}

/** Whether a URL has no path beyond `/` (e.g. `http://localhost:11434`). */
function isOriginOnly(url: string): boolean {
  try {
    const u = new URL(url);
    return u.pathname === "/" || u.pathname === "";
  } catch {
    return false;
  }
}

/**
 * The base URL the `openai` SDK gets for an OpenAI-compatible provider (it
 * appends `/chat/completions`): `base_url` normalised, else the kind's default.
 * `originGetsV1`: a bare origin gets `/v1` (Ollama serves its OpenAI-compatible
 * API there, and users often give just the origin).
 */
export function openAICompatibleUrl(baseUrl: string | undefined, defaultUrl: string, opts: { originGetsV1?: boolean } = {}): string {
  if (!baseUrl) return defaultUrl;
  const url = normalizeOpenAIBaseUrl(baseUrl);
  if (opts.originGetsV1 && isOriginOnly(url)) return `${url}/v1`;
  return url;
}

/**
 * The base URL the Anthropic SDK gets. It appends `/v1/messages` itself, so a
 * user-given `/v1`, `/v1/messages` or `/messages` suffix is stripped.
 */
export function anthropicBaseUrl(p: Pick<ProviderSettings, "baseUrl">): string {
  if (!p.baseUrl) return ANTHROPIC_DEFAULT_BASE_URL;
  return stripOneSuffix(stripTrailingSlashes(p.baseUrl.trim()), ["/v1/messages", "/messages", "/v1"]);
}

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";
const GEMINI_DEFAULT_API_VERSION = "v1beta";

/**
 * Where the Gemini SDK sends requests: an origin (it appends
 * `/<apiVersion>/models/...`) and the API version. A user-given base URL may
 * end in the version (`.../v1beta`), which is then taken from it.
 */
export function geminiEndpoint(p: Pick<ProviderSettings, "baseUrl">): { baseUrl: string; apiVersion: string } {
  if (!p.baseUrl) return { baseUrl: GEMINI_DEFAULT_BASE_URL, apiVersion: GEMINI_DEFAULT_API_VERSION };
  const url = stripTrailingSlashes(p.baseUrl.trim());
  const version = /\/(v1(?:alpha|beta)?\d*)$/.exec(url);
  if (version?.[1]) return { baseUrl: url.slice(0, -version[0].length), apiVersion: version[1] };
  return { baseUrl: url, apiVersion: GEMINI_DEFAULT_API_VERSION };
}

/** Bedrock's endpoint: the override, or the region's runtime endpoint (for messages). */
export function bedrockEndpoint(p: Pick<ProviderSettings, "baseUrl" | "region">): string {
  if (p.baseUrl) return stripTrailingSlashes(p.baseUrl.trim());
  return `https://bedrock-runtime.${p.region ?? "us-east-1"}.amazonaws.com`;
}
